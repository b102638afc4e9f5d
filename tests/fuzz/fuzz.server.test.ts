/**
 * The fuzz suite against the server (on the project's database) and the mock side by side:
 * each generated request goes to both, and they must agree (tests/fuzz/suite.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, it } from 'vitest';
import { startHarness, type Harness } from '../../packages/server/test/db/harness.js';
import { startSite, type Site } from '../../packages/server/test/db/support/site.js';
import { FUZZ_PLANS, FUZZ_RUNS, newTally, report, runFuzz, seed, type Seeded } from './suite.js';
import { mockTarget, serverSnapshot } from './targets.js';

const { mock, target: mockSide } = mockTarget();
// The server is on 127.0.0.1: msw lets those requests through.
const intercept = setupServer(...mock.handlers);
const tally = newTally();
let h: Harness;
let site: Site;
let receiver: ReturnType<typeof createServer>;
let targets: Seeded[];

beforeAll(async () => {
  intercept.listen({ onUnhandledRequest: 'bypass' });
  h = await startHarness({ plans: FUZZ_PLANS });
  site = await startSite();
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const server = await seed({
    name: 'server',
    baseUrl: h.url,
    token: h.token,
    site: `${site.url}/`,
    // allowPrivateAddresses (the harness) lets the server deliver to a local receiver.
    hook: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    snapshot: () => serverSnapshot(h.knex),
  });
  targets = [server, await seed(mockSide)];
}, 60_000);
afterAll(async () => {
  intercept.close();
  await h.close();
  await site.close();
  receiver.close();
  console.log(report(`server (${process.env.SITEAUDIT_TEST_DB?.startsWith('postgres') ? 'postgres' : 'sqlite'}) and mock`, tally));
});

it(`answers ${FUZZ_RUNS} generated requests like the mock, without a 5xx, with catalogue problems, and loses nothing on a refusal`, async () => {
  await runFuzz(targets, tally);
}, 60_000 + FUZZ_RUNS * 200);
