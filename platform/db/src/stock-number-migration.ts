/**
 * Migration 0021: a car's stock number and VIN as columns of their own, indexed per site, so an
 * inventory feed finds the car a row updates (by stock number, else VIN) and the console's stock
 * screen finds a car by either, without reading every car's data. Existing cars are filled from
 * their stored data.
 */
import type { Kysely, Migration } from 'kysely';

export function stockNumberMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('cars').addColumn('stocknum', 'text').execute();
      await db.schema.alterTable('cars').addColumn('vin', 'text').execute();
      const cars = db as unknown as Kysely<{ cars: { id: number; data: string; stocknum: string | null; vin: string | null } }>;
      for (let after = 0; ;) {
        const rows = await cars.selectFrom('cars').select(['id', 'data']).where('id', '>', after).orderBy('id').limit(500).execute();
        if (rows.length === 0) break;
        for (const row of rows) {
          const car = JSON.parse(row.data) as { stocknum?: string; vin?: string };
          await cars
            .updateTable('cars')
            .set({ stocknum: car.stocknum || null, vin: car.vin || null })
            .where('id', '=', row.id)
            .execute();
        }
        after = Number(rows[rows.length - 1]!.id);
      }
      await db.schema.createIndex('cars_site_stocknum').on('cars').columns(['site_id', 'stocknum']).execute();
      await db.schema.createIndex('cars_site_vin').on('cars').columns(['site_id', 'vin']).execute();
    },
  };
}
