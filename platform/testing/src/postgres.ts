import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the PostgreSQL suites run against; `TEST_DATABASE_URL` overrides the local default. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * `SKIP_POSTGRES=1` leaves the PostgreSQL suites out on a machine without PostgreSQL. Without it an
 * unreachable server fails those suites: a silent skip would hide that the engine went untested.
 */
export const skipPostgres = process.env.SKIP_POSTGRES === '1';

export type TestSchema = { databaseUrl: string; schema: string; drop(): Promise<void> };

async function withClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${testDatabaseUrl} (${(error as Error).message}). Start it, point TEST_DATABASE_URL at one, or set SKIP_POSTGRES=1.`,
      { cause: error },
    );
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty schema per test file, so files running side by side never see each other's rows. */
export async function createTestSchema(): Promise<TestSchema> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withClient((client) => client.query(`CREATE SCHEMA "${schema}"`));
  return {
    databaseUrl: testDatabaseUrl,
    schema,
    drop: () => withClient((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)).then(() => undefined),
  };
}
