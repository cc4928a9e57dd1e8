/**
 * Migration 0021: a car's stock number and VIN as columns of their own, indexed per site, so an
 * inventory feed finds the car a row updates (by stock number, else VIN) and the console's stock
 * screen finds a car by either, without reading every car's data. Existing cars are filled from
 * their stored data in one statement (a table of many cars is not held row by row).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseEngine } from './database-engine';

export function stockNumberMigration(engine: DatabaseEngine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('cars').addColumn('stocknum', 'text').execute();
      await db.schema.alterTable('cars').addColumn('vin', 'text').execute();
      if (engine === 'postgres')
        await sql`update cars set stocknum = nullif(data::jsonb ->> 'stocknum', ''), vin = nullif(data::jsonb ->> 'vin', '')`.execute(db);
      else
        await sql`update cars set stocknum = nullif(json_extract(data, '$.stocknum'), ''), vin = nullif(json_extract(data, '$.vin'), '')`.execute(
          db,
        );
      await db.schema.createIndex('cars_site_stocknum').on('cars').columns(['site_id', 'stocknum']).execute();
      await db.schema.createIndex('cars_site_vin').on('cars').columns(['site_id', 'vin']).execute();
    },
  };
}
