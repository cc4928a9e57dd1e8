/**
 * The console bench's store (bench/console-bench.ts): migrated and seeded with the demo as the
 * server's first start would, then one site's leads batch-inserted straight into `leads`, many rows
 * a statement: a year of enquiries over four forms and the dealer's workflow statuses, each with a
 * realistic payload; about 1% mention `searchWord`, which no other payload holds.
 */
import { migrateToLatest, openDatabase, type PlatformDb } from '@dealer/db/database';
import type { LeadDealerStatus } from '@dealer/db/schema';
import { createRng, seedFrom, type Rng, type Weighted } from '@dealer/demo/prng';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { testDatabaseUrl } from '@dealer/testing/postgres';

export const searchWord = 'snorkel';

const categories: Weighted<string>[] = [
  ['General Enquiry', 45],
  ['Test Drive', 25],
  ['Finance', 18],
  ['Service Enquiry', 12],
];
const statuses: Weighted<LeadDealerStatus>[] = [
  ['new', 35],
  ['contacted', 25],
  ['appointment', 15],
  ['sold', 10],
  ['lost', 15],
];
const firstNames = [
  'Jane',
  'Liam',
  'Olivia',
  'Noah',
  'Mia',
  'Jack',
  'Ava',
  'Oliver',
  'Chloe',
  'William',
  'Grace',
  'Lucas',
  'Isla',
  'Henry',
];
const lastNames = [
  'Nguyen',
  'Smith',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Martin',
  'Anderson',
  'Thompson',
  'White',
  'Walker',
  'Kelly',
];
const vehicles = [
  ['Toyota', 'Hilux'],
  ['Mazda', 'CX-5'],
  ['Ford', 'Ranger'],
  ['Hyundai', 'i30'],
  ['Kia', 'Sportage'],
  ['Mitsubishi', 'Triton'],
] as const;
const comments = [
  'Is this vehicle still available? I would like to book a test drive this weekend.',
  'What is the best drive-away price you can do on this one?',
  'Can you tell me more about the service history and how many owners it had?',
  'I have a trade-in, a 2015 hatch with 120,000 km. What would you give me for it?',
  'Could you call me after 5pm about finance options for this car?',
  'Does it come with a roadworthy certificate and a spare key?',
  'Hi, my car is due for its 60,000 km service. Do you have a spot next Tuesday morning?',
];
// In about 1% of the leads: the text search's word, found nowhere else in the payloads.
const searchComment = `Does it have a ${searchWord} fitted? We do a lot of beach and river crossings.`;

type SiteFacts = { slug: string; siteId: number; locationIds: number[] };

async function siteFacts(db: PlatformDb, slug: string): Promise<SiteFacts> {
  const site = await db.selectFrom('sites').select('id').where('slug', '=', slug).executeTakeFirst();
  if (!site) throw new Error(`the demo has no site ${slug}`);
  const locations = await db.selectFrom('locations').select('id').where('site_id', '=', site.id).orderBy('id').execute();
  return { slug, siteId: Number(site.id), locationIds: locations.map((row) => Number(row.id)) };
}

function leadRow(rng: Rng, facts: SiteFacts, n: number, createdAt: number) {
  const category = rng.weighted(categories);
  const [make, model] = rng.pick(vehicles);
  const name = rng.pick(firstNames);
  const lastName = rng.pick(lastNames);
  const { slug } = facts;
  const payload: Record<string, unknown> = {
    category,
    name,
    last_name: lastName,
    email: `${name}.${lastName}.${n}@example.com`.toLowerCase(),
    phone: `04${rng.digits(8)}`,
    postcode: rng.digits(4),
    comments: rng.chance(0.01) ? searchComment : rng.pick(comments),
    location_id: facts.locationIds.length ? rng.pick(facts.locationIds) : null,
    'Vehicle Make': make,
    'Vehicle Model': model,
    opt_in: rng.chance(0.7),
    url: `https://${slug}.example/cars/${make.toLowerCase()}-${model.toLowerCase()}-${rng.digits(5)}`,
    website_slug: slug,
    source: 'website',
    visited_pages: ['/', '/search', `/cars/${make.toLowerCase()}-${model.toLowerCase()}`],
    linked_query_params: rng.chance(0.3) ? { utm_source: 'google', utm_medium: 'cpc' } : {},
  };
  return {
    site_id: facts.siteId,
    category,
    lead_status: 'New',
    idempotency_key: null,
    payload: JSON.stringify(payload),
    created_at: createdAt,
    updated_at: createdAt,
    token_salt: null,
    request_hash: null,
    spam_reason: null,
    completed_at: createdAt,
    form_completed: 1,
    has_files: 0,
    mock: 0,
    dealer_status: rng.weighted(statuses),
    assignee_id: null,
  };
}

/** N leads over the last year, oldest first (ids follow time, as they do when leads arrive), many rows a statement. */
async function insertLeads(db: PlatformDb, facts: SiteFacts, count: number) {
  const rng = createRng(seedFrom(`console-bench ${facts.slug}`));
  const now = Date.now();
  const year = 365 * 86_400_000;
  const times = Array.from({ length: count }, () => now - Math.floor(rng.next() * year)).sort((a, b) => a - b);
  const perStatement = 1000;
  const perTransaction = 20_000;
  let matching = 0;
  for (let start = 0; start < count; start += perTransaction) {
    await db.transaction().execute(async (trx) => {
      for (let from = start; from < Math.min(count, start + perTransaction); from += perStatement) {
        const rows = times.slice(from, Math.min(count, from + perStatement)).map((time, i) => leadRow(rng, facts, from + i, time));
        matching += rows.filter((row) => row.payload.includes(searchWord)).length;
        await trx.insertInto('leads').values(rows).execute();
      }
    });
  }
  return { matching };
}

/**
 * Migrates and seeds the store as the server's first start would, then adds `count` leads to the
 * site: how long they took, and how many hold the search word.
 */
export async function prepareStore(engine: 'sqlite' | 'postgres', store: StoreAddress, slug: string, count: number) {
  const { db } = openStore(store);
  try {
    await migrateToLatest(db, engine);
    await seedDemoDataIfEmpty(db);
    const facts = await siteFacts(db, slug);
    const t0 = performance.now();
    const { matching } = await insertLeads(db, facts, count);
    const seconds = (performance.now() - t0) / 1000;
    // A real store's planner statistics are kept up to date by autovacuum; a fresh bulk load has none yet.
    if (engine === 'postgres') await rawStatement(db, 'analyze leads');
    return { seconds, matching };
  } finally {
    await db.destroy();
  }
}

/** A statement Kysely's builders have no form for, sent as its CompiledQuery.raw would (bench/ does not depend on kysely itself). */
async function rawStatement(db: PlatformDb, text: string) {
  const query = {
    sql: text,
    parameters: [],
    query: { kind: 'RawNode', sqlFragments: [text], parameters: [] },
    queryId: { queryId: 'console-bench' },
  };
  await db.executeQuery(query as unknown as Parameters<PlatformDb['executeQuery']>[0]);
}

/** Where the store is: SQLite under dataDir, or the PostgreSQL schema searchPath of TEST_DATABASE_URL. */
export type StoreAddress = { dataDir: string; searchPath?: string };
export const openStore = (store: StoreAddress) =>
  openDatabase({ dataDir: store.dataDir, databaseUrl: store.searchPath ? testDatabaseUrl : null, pgSearchPath: store.searchPath });
