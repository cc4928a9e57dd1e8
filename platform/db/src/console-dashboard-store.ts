/**
 * The dealer console's dashboard figures, counted in the database (issue 23): leads per day by form
 * and by location, the funnel from the site's own event log (visits → car views → leads), the most
 * viewed cars, and lead delivery health. Days are UTC. Mock leads and leads held as spam are left out.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DatabaseEngine } from './database-engine';
import type { PlatformDb } from './database';

export type Dashboard = {
  days: string[];
  leads_by_form: { day: string; form: string; count: number }[];
  leads_by_location: { day: string; location_id: string | null; count: number }[];
  funnel: { visits: number; car_views: number; leads: number };
  top_cars: { slug: string; name: string | null; views: number }[];
  delivery: Record<string, number>;
};

const dayOf = (engine: DatabaseEngine, column: string): RawBuilder<string> =>
  engine === 'postgres'
    ? sql<string>`to_char(to_timestamp(${sql.ref(column)} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`strftime('%Y-%m-%d', ${sql.ref(column)} / 1000, 'unixepoch')`;

const jsonText = (engine: DatabaseEngine, path: string[]): RawBuilder<string | null> =>
  engine === 'postgres'
    ? sql<string | null>`(payload::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})`
    : sql<string | null>`cast(json_extract(payload, ${sql.lit(`$.${path.join('.')}`)}) as text)`;

export async function dashboardOf(db: PlatformDb, engine: DatabaseEngine, siteId: number, since: number, now: number): Promise<Dashboard> {
  const realLeads = db
    .selectFrom('leads')
    .where('site_id', '=', siteId)
    .where('created_at', '>=', since)
    .where('mock', '=', 0)
    .where('spam_reason', 'is', null);
  const location = sql<string | null>`coalesce(${jsonText(engine, ['location_id'])}, ${jsonText(engine, ['booking_location_id'])})`;
  const pageViews = db
    .selectFrom('events')
    .where('site_id', '=', siteId)
    .where('category', '=', 'page_view')
    .where('created_at', '>=', since);
  const carSlug = jsonText(engine, ['event_properties', 'car_slug']);

  const [byForm, byLocation, visits, carViews, topCars, delivery] = await Promise.all([
    realLeads
      .select([dayOf(engine, 'created_at').as('day'), 'category', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['day', 'category'])
      .execute(),
    realLeads
      .select([dayOf(engine, 'created_at').as('day'), location.as('location_id'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['day', 'location_id'])
      .execute(),
    pageViews.select(sql<number>`count(distinct ${jsonText(engine, ['session_id'])})`.as('count')).executeTakeFirst(),
    pageViews
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where(carSlug, 'is not', null)
      .executeTakeFirst(),
    pageViews
      .select([
        carSlug.as('slug'),
        sql<string | null>`max(${jsonText(engine, ['event_properties', 'car_name'])})`.as('name'),
        (eb) => eb.fn.countAll<number>().as('views'),
      ])
      .where(carSlug, 'is not', null)
      .groupBy('slug')
      .orderBy('views', 'desc')
      .limit(10)
      .execute(),
    db
      .selectFrom('lead_delivery_jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('site_id', '=', siteId)
      .groupBy('status')
      .execute(),
  ]);
  const days: string[] = [];
  for (let at = since; at <= now; at += 86_400_000) days.push(new Date(at).toISOString().slice(0, 10));
  const leads = byForm.reduce((sum, row) => sum + Number(row.count), 0);
  return {
    days,
    leads_by_form: byForm.map((row) => ({ day: row.day, form: row.category, count: Number(row.count) })),
    leads_by_location: byLocation.map((row) => ({ day: row.day, location_id: row.location_id, count: Number(row.count) })),
    funnel: { visits: Number(visits?.count ?? 0), car_views: Number(carViews?.count ?? 0), leads },
    top_cars: topCars.map((row) => ({ slug: String(row.slug), name: row.name, views: Number(row.views) })),
    delivery: Object.fromEntries(delivery.map((row) => [row.status, Number(row.count)])),
  };
}
