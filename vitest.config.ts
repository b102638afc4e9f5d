import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { DurationSequencer } from './tests/setup/duration-sequencer.js';
import { DEFAULT_TEST_DATABASE_URL } from './tests/setup/postgres-database.js';

/**
 * Files a server writes where no test said otherwise (export files, by default under
 * ./.siteaudit/exports, the folder a local server uses) go to a scratch directory instead, removed
 * at the end (tests/setup/scratch.ts). Child processes of the tests inherit it.
 */
if (!process.env.SITEAUDIT_TEST_SCRATCH) {
  process.env.SITEAUDIT_TEST_SCRATCH = mkdtempSync(path.join(tmpdir(), 'siteaudit-tests-'));
  process.env.SITEAUDIT_EXPORT_DIR = path.join(process.env.SITEAUDIT_TEST_SCRATCH, 'exports');
}

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
      { find: /^@siteaudit\/schema\/(rules|pipeline)$/, replacement: fileURLToPath(new URL('./packages/schema/src/$1/index.ts', import.meta.url)) },
      { find: /^@siteaudit\/schema$/, replacement: src('schema') },
      { find: /^@siteaudit\/server$/, replacement: src('server') },
      { find: /^@siteaudit\/client$/, replacement: src('client') },
      { find: /^@siteaudit\/mock$/, replacement: src('mock') },
    ],
  },
  test: {
    globalSetup: ['tests/setup/scratch.ts'],
    // A hang guard, not a timing check: five CI lanes on two cores made tests that take 2–10 s
    // alone take over 20 s (2026-11-28).
    testTimeout: 60_000,
    // Files at a time: vitest's default (one less than the cores: one by one on a 2-core machine)
    // unless TEST_WORKERS says otherwise. Each file has its own database (an in-memory SQLite, or
    // a PostgreSQL database of its own), ports and scratch files, so TEST_WORKERS=2 halves the time
    // of the tests that wait on child processes; under a heavy CPU load the stop and crash tests
    // on PostgreSQL then miss their timing (a burst reset, hooks past 60 s), so it is not the default.
    maxWorkers: Number(process.env.TEST_WORKERS ?? Math.max(1, availableParallelism() - 1)),
    hookTimeout: 60_000,
    // `--shard=i/n` (the CI lanes) splits the files by recorded time, not by count.
    sequence: { sequencer: DurationSequencer },
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
