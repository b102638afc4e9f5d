/** The fuzz targets, the server and the mock, and the snapshots of stored data each side takes. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createMockApi, DEFAULT_BASE_URL, type MockApi } from '@siteaudit/mock';
import { SCOPES } from '@siteaudit/schema';
import { startHarness, type Harness } from './harness.js';
import { startSite } from './site.js';
import { FUZZ_PLANS, type FuzzTarget } from './fuzz-suite.js';
import { oneShotFetch } from './one-shot-fetch.js';

const pick = <T extends object>(record: T, keys: readonly (keyof T)[]) => keys.map((k) => record[k]);

/**
 * The team's resources a request could write: projects, campaigns, webhooks and tracked
 * keywords in full, crawls and exports by count (their status moves on in the background).
 */
export async function serverSnapshot(knex: Knex): Promise<string> {
  const rows = async (table: string, columns: string[]) => knex(table).select(columns).orderBy('id');
  return JSON.stringify([
    await rows('projects', ['id', 'name', 'slug', 'url', 'locked']),
    await rows('campaigns', ['id', 'project_id', 'name', 'start_url', 'max_depth', 'max_urls', 'include_patterns', 'exclude_patterns', 'issue_exclusion_patterns', 'notify', 'schedule_frequency', 'schedule_day', 'schedule_time']),
    await rows('webhooks', ['id', 'url', 'description', 'events', 'secret_enc']),
    await rows('tracked_keywords', ['id', 'project_id', 'keyword', 'state']),
    (await knex('crawls').count({ n: '*' }))[0],
    (await knex('exports').count({ n: '*' }))[0],
  ]);
}

export function mockSnapshot(mock: MockApi): string {
  const db = mock.db;
  return JSON.stringify([
    [...db.projects.values()].map((p) => pick(p, ['id', 'name', 'slug', 'url', 'locked'])),
    [...db.campaigns.values()].map((c) => [c.id, c.project_id, c.name, c.start_url, c.max_depth, c.max_urls, c.schedule, c.write_only]),
    [...db.webhooks.values()].map((w) => pick(w, ['id', 'url', 'description', 'events', 'secret'])),
    db.keywords.map((k) => pick(k, ['project_id', 'keyword', 'state'])),
    db.crawls.size,
    db.exports.size,
  ]);
}

/** A mock at its default base URL with an owner token of a team on the agency plan (FUZZ_PLANS). */
export function mockTarget(): { mock: MockApi; target: FuzzTarget } {
  // The mock finishes pending work before each request, so a seeded crawl settles on its next poll.
  // The failed-authentication throttle counts by clock minute, which the two sides keep apart
  // (the mock's clock moves with its work): off here, tested on its own (auth-failures tests).
  // Private addresses allowed, as the server's harness does: http webhook URLs are then accepted.
  const mock = createMockApi({ autoAdvance: true, plans: FUZZ_PLANS, authFailuresPerMinute: null, allowPrivateAddresses: true });
  mock.admin.createTeam({ slug: 'fuzz', name: 'Fuzz', plan: 'agency' });
  mock.admin.addMember({ team: 'fuzz', email: 'owner@fuzz.test', name: 'Owner', role: 'owner' });
  const { token } = mock.admin.createToken({ team: 'fuzz', member: 'owner@fuzz.test', name: 'fuzz', scopes: SCOPES });
  return {
    mock,
    target: { name: 'mock', baseUrl: DEFAULT_BASE_URL, token, site: 'https://www.example.com/', hook: 'https://hooks.example.com/siteaudit', snapshot: async () => mockSnapshot(mock) },
  };
}

/**
 * A server on the project's database (the test harness, FUZZ_PLANS) with a local site it may
 * audit and a local webhook receiver.
 */
export async function serverTarget(): Promise<{ harness: Harness; target: FuzzTarget; close: () => Promise<void> }> {
  const harness = await startHarness({ plans: FUZZ_PLANS, authFailuresPerMinute: null });
  const site = await startSite();
  const receiver = createServer((_req, res) => res.writeHead(204).end());
  // A connection a request: the run is about answers, not about keep-alive's race (one-shot-fetch.ts).
  const client = oneShotFetch();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    harness,
    target: {
      name: 'server',
      baseUrl: harness.url,
      token: harness.token,
      site: `${site.url}/`,
      // allowPrivateAddresses (the harness) lets the server deliver to a local receiver.
      hook: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      snapshot: () => serverSnapshot(harness.knex),
      fetch: client.fetch,
    },
    async close() {
      await harness.close();
      await client.close();
      await site.close();
      receiver.close();
    },
  };
}
