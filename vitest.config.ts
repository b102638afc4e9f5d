import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { DurationSequencer } from './tests/setup/duration-sequencer.js';
import { DEFAULT_TEST_DATABASE_URL } from './tests/setup/postgres-database.js';

/**
 * Files a server writes where no test said otherwise (export files and log uploads, by default
 * under ./.siteaudit/exports and ./.siteaudit/logs, the folders a local server uses) go to a scratch directory instead, removed
 * at the end (tests/setup/scratch.ts). Child processes of the tests inherit it.
 */
if (!process.env.SITEAUDIT_TEST_SCRATCH) {
  process.env.SITEAUDIT_TEST_SCRATCH = mkdtempSync(path.join(tmpdir(), 'siteaudit-tests-'));
  process.env.SITEAUDIT_EXPORT_DIR = path.join(process.env.SITEAUDIT_TEST_SCRATCH, 'exports');
  process.env.SITEAUDIT_LOG_DIR = path.join(process.env.SITEAUDIT_TEST_SCRATCH, 'logs');
}

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * One suite, three projects: `unit` (no database), then every database test twice, on the
 * embedded SQLite default and on PostgreSQL (TEST_DATABASE_URL, default the local `test` database).
 */
const databaseTests = ['packages/server/test/db/**/*.test.ts', 'tests/**/*.server.test.ts'];
const unitTests = ['packages/*/test/**/*.test.ts', 'tests/**/*.mock.test.ts'];

/**
 * Files that replace a module the server imports (`vi.mock` of undici, DNS or the address guard)
 * or reset the module registry: they need modules of their own, so they run isolated, in a
 * project named `<project>:isolated`. Every other file shares its worker's modules with the files
 * before it (`isolate: false`): importing the server's sources again for each file was over half
 * of a database test file's time (8 files: 17.6 s → 6.8 s). A new file that mocks a module goes here.
 */
const isolatedDatabaseTests = [
  'packages/server/test/db/local-names.test.ts',
  'packages/server/test/db/public-url.test.ts',
  'packages/server/test/db/redirect-refused.test.ts',
  'packages/server/test/db/webhooks-delivery.test.ts',
  'packages/server/test/db/webhooks-guard.test.ts',
];
const isolatedUnitTests = [
  'packages/server/test/net/guard-webhooks.test.ts',
  'packages/server/test/openapi-clients/generated-clients.test.ts',
  'packages/client/test/errors.test.ts',
];

type Project = { name: string; include: string[]; isolated: string[]; exclude?: string[]; env?: Record<string, string>; globalSetup?: string[] };
/** A project twice: its files that share their worker's modules, and its files that need their own. */
const withIsolated = ({ name, include, isolated, exclude = [], ...rest }: Project): TestProjectInlineConfiguration[] => [
  { extends: true, test: { name, include, exclude: [...exclude, ...isolated], isolate: false, ...rest } },
  { extends: true, test: { name: `${name}:isolated`, include: isolated, ...rest } },
];

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
      ...withIsolated({ name: 'unit', include: unitTests, isolated: isolatedUnitTests, exclude: databaseTests }),
      // TEST_SQLITE=file: each harness server on an SQLite file of its own, its reads on their own connections (tests/support/harness.ts).
      ...withIsolated({ name: 'sqlite', include: databaseTests, isolated: isolatedDatabaseTests, env: { SITEAUDIT_TEST_DB: process.env.TEST_SQLITE === 'file' ? 'sqlite-file' : 'sqlite' } }),
      // The postgres project's global setup creates the database when missing (a fresh machine).
      ...withIsolated({
        name: 'postgres',
        include: databaseTests,
        isolated: isolatedDatabaseTests,
        globalSetup: ['tests/setup/postgres-database.ts'],
        env: { SITEAUDIT_TEST_DB: process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL },
      }),
    ],
  },
});
