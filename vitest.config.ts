import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { DEFAULT_TEST_DATABASE_URL } from './tests/setup/postgres-database.js';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * One suite, three projects: `unit` (no database), then every database test twice, on the
 * embedded SQLite default and on PostgreSQL (TEST_DATABASE_URL, default the local `test` database).
 */
const databaseTests = ['packages/server/test/db/**/*.test.ts', 'tests/**/*.server.test.ts'];

export default defineConfig({
  resolve: {
    // Exact matches, so that subpaths such as @siteaudit/schema/operations resolve to their file.
    alias: [
      { find: /^@siteaudit\/schema\/(operations|openapi)$/, replacement: fileURLToPath(new URL('./packages/schema/src/$1.ts', import.meta.url)) },
      { find: /^@siteaudit\/schema$/, replacement: src('schema') },
      { find: /^@siteaudit\/server$/, replacement: src('server') },
      { find: /^@siteaudit\/client$/, replacement: src('client') },
      { find: /^@siteaudit\/mock$/, replacement: src('mock') },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['packages/*/test/**/*.test.ts', 'tests/**/*.mock.test.ts'], exclude: databaseTests },
      },
      {
        extends: true,
        test: { name: 'sqlite', include: databaseTests, env: { SITEAUDIT_TEST_DB: 'sqlite' } },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: databaseTests,
          // Creates the database when missing (a fresh machine).
          globalSetup: ['tests/setup/postgres-database.ts'],
          env: { SITEAUDIT_TEST_DB: process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL },
        },
      },
    ],
  },
});
