/**
 * Global setup of the `postgres` test project: `npm test` on a fresh machine finds no `test`
 * database, so it is created (from the server's `postgres` database) when missing. Each test
 * server then gets a database of its own, copied from a migrated template
 * (tests/support/postgres-template.ts).
 */
import pg from 'pg';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export default async function ensureTestDatabase(): Promise<void> {
  const url = new URL(process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name || name === 'postgres') return;
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.href });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL does not answer at ${url.host} (${(error as Error).message}): start it, set TEST_DATABASE_URL, or run \`npm run test:sqlite\``);
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    await client.query(`create database ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
      // Another run created it first: duplicate_database, or the unique index of pg_database.
      if (error.code !== '42P04' && error.code !== '23505') throw error;
    });
    console.log(`Created the PostgreSQL database "${name}" for the tests`);
  } finally {
    await client.end();
  }
}
