import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { PlatformDb } from './database';
import { skipPostgres } from '@dealer/testing/postgres';
import { openMigratedStore as openStore } from '@dealer/testing/migrated-store';
import { claimDueRows, releaseClaimedRows, type OutboxTable } from './due-rows';

type Fields = { status: string; next_attempt_at: number; claim_token?: string | null; claimed_until?: number | null };

const siteId = 1;
let leadId = 0;
let eventCount = 0;

/** Each outbox: what a row is, and the statuses that mean it is over (sent, or given up). */
const outboxes: Record<OutboxTable, { over: string[]; insert(db: PlatformDb, fields: Fields): Promise<number> }> = {
  lead_delivery_jobs: {
    over: ['delivered', 'dead'],
    insert: async (db, fields) => {
      const row = await db
        .insertInto('lead_delivery_jobs')
        .values({ lead_id: leadId, site_id: siteId, target: '{"kind":"adf-file"}', created_at: 0, updated_at: 0, ...fields } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  },
  shopper_mail: {
    over: ['sent', 'dead', 'expired'],
    insert: async (db, fields) => {
      const row = await db
        .insertInto('shopper_mail')
        .values({
          site_id: siteId,
          email: 'ana@example.com',
          kind: 'sign-in',
          subject: 'Your code',
          body: '123456',
          created_at: 0,
          updated_at: 0,
          ...fields,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  },
  console_mail: {
    over: ['sent', 'dead', 'expired'],
    insert: async (db, fields) => {
      const row = await db
        .insertInto('console_mail')
        .values({ email: 'sam@example.com', subject: 'Your code', body: '123456', created_at: 0, updated_at: 0, ...fields } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  },
  ad_events: {
    over: ['sent', 'dead', 'expired'],
    insert: async (db, fields) => {
      const row = await db
        .insertInto('ad_events')
        .values({
          site_id: siteId,
          event_id: `event-${++eventCount}`,
          event_name: 'Lead',
          payload: '{}',
          created_at: 0,
          updated_at: 0,
          ...fields,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  },
};

it('knows the four outbox tables, and no other', () => {
  expectTypeOf<OutboxTable>().toEqualTypeOf<'lead_delivery_jobs' | 'shopper_mail' | 'console_mail' | 'ad_events'>();
});

describe.each(['sqlite', 'postgres'] as const)('claiming due outbox rows on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: Awaited<ReturnType<typeof openStore>>;
  beforeAll(async () => {
    store = await openStore(engine);
    await store.db.insertInto('sites').values({ id: siteId, slug: 'test-site', domain_name: null, config: '{}', updated_at: 0 }).execute();
    const lead = await store.db
      .insertInto('leads')
      .values({
        site_id: siteId,
        category: 'General Enquiry',
        lead_status: 'New',
        idempotency_key: null,
        payload: '{}',
        created_at: 0,
        updated_at: 0,
        token_salt: null,
        request_hash: null,
        spam_reason: null,
        completed_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    leadId = Number(lead.id);
  });
  afterAll(async () => {
    await store?.close();
  });

  describe.each(Object.keys(outboxes) as OutboxTable[])('in %s', (table) => {
    const { over, insert } = outboxes[table];
    const now = 1_000_000;
    const leaseMs = 1_000;
    const claim = (token: string, at = now, limit = 100) =>
      claimDueRows(store.db, { table, columns: ['id', 'status', 'claim_token', 'claimed_until'], token, now: at, leaseMs, limit });
    const claimTokens = async () => {
      const rows = await store.db.selectFrom(table).select(['id', 'claim_token']).execute();
      return new Map(rows.map((row) => [Number(row.id), row.claim_token]));
    };

    beforeEach(async () => {
      await store.db.deleteFrom(table).execute();
    });

    it('claims the due rows with the token and a lease, the most overdue first up to the limit, and returns them by id', async () => {
      const late = await insert(store.db, { status: 'pending', next_attempt_at: now - 10 });
      const later = await insert(store.db, { status: 'failed', next_attempt_at: now - 20 });
      const justDue = await insert(store.db, { status: 'pending', next_attempt_at: now });
      const claimed = await claim('a', now, 2);
      expect(claimed).toEqual([
        { id: late, status: 'pending', claim_token: 'a', claimed_until: now + leaseMs },
        { id: later, status: 'failed', claim_token: 'a', claimed_until: now + leaseMs },
      ]);
      expect((await claim('b')).map((row) => row.id)).toEqual([justDue]);
      expect(await claimTokens()).toEqual(
        new Map([
          [late, 'a'],
          [later, 'a'],
          [justDue, 'b'],
        ]),
      );
    });

    it('never claims a row not yet due, sent or given up, or under a live lease', async () => {
      await insert(store.db, { status: 'pending', next_attempt_at: now + 1 });
      await insert(store.db, { status: 'failed', next_attempt_at: now + 60_000 });
      for (const status of over) await insert(store.db, { status, next_attempt_at: now - 1 });
      await insert(store.db, { status: 'pending', next_attempt_at: now - 1, claim_token: 'other', claimed_until: now });
      await insert(store.db, { status: 'failed', next_attempt_at: now - 1, claim_token: 'other', claimed_until: now + 1 });
      expect(await claim('a')).toEqual([]);
      expect([...(await claimTokens()).values()].filter((token) => token === 'a')).toEqual([]);
    });

    it('claims a row again once its lease has run out, and at once when it is given back', async () => {
      const id = await insert(store.db, { status: 'pending', next_attempt_at: now });
      expect(await claim('first', now)).toHaveLength(1);
      expect(await claim('second', now + leaseMs / 2)).toEqual([]);
      // The lease holds up to its last millisecond (claimed_until is still `now`).
      expect(await claim('second', now + leaseMs)).toEqual([]);
      expect(await claim('second', now + leaseMs + 1)).toEqual([
        { id, status: 'pending', claim_token: 'second', claimed_until: now + 2 * leaseMs + 1 },
      ]);

      // Only the holder's release counts.
      await releaseClaimedRows(store.db, table, 'first', [id]);
      expect(await claim('third', now + leaseMs + 2)).toEqual([]);
      await releaseClaimedRows(store.db, table, 'second', [id]);
      expect((await claim('third', now + leaseMs + 2)).map((row) => row.id)).toEqual([id]);
    });

    it('never gives one row to two claimers racing for it', async () => {
      const ids: number[] = [];
      for (let n = 0; n < 40; n++) ids.push(await insert(store.db, { status: n % 2 ? 'failed' : 'pending', next_attempt_at: now - n }));
      const tokens = Array.from({ length: 8 }, (_, n) => `worker-${n}`);
      const claimedBy = new Map<number, string>();
      // Rounds of eight claimers at once, each after up to 7 rows, until all are taken.
      for (let round = 0; round < 20 && claimedBy.size < ids.length; round++) {
        const batches = await Promise.all(tokens.map((token) => claim(token, now, 7).then((rows) => ({ token, rows }))));
        for (const { token, rows } of batches) {
          for (const row of rows) {
            expect(claimedBy.get(row.id), `row ${row.id} claimed by ${claimedBy.get(row.id)} and ${token}`).toBeUndefined();
            expect(row.claim_token).toBe(token);
            claimedBy.set(row.id, token);
          }
        }
      }
      expect([...claimedBy.keys()].sort((a, b) => a - b)).toEqual(ids);
      expect(await claimTokens()).toEqual(claimedBy);
    });
  });
});
