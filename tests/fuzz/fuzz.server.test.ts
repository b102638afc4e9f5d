/**
 * The fuzz suite against the server (on the project's database) and the mock side by side:
 * each generated request goes to both, and they must agree (tests/support/fuzz-suite.ts).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, it } from 'vitest';
import { fuzzRuns, newTally, report, runFuzz, seed, type Seeded } from '../support/fuzz-suite.js';
import { mockTarget, serverTarget } from '../support/fuzz-targets.js';

/**
 * 1,000 requests on each database (2,000 per `npm test`, each run with its own seed) to the server
 * and the same to the mock; `npm run fuzz` is the long run.
 */
const FUZZ_RUNS = fuzzRuns(1_000);
const { target: mockSide, mock } = mockTarget();
// The server is on 127.0.0.1: msw lets those requests through.
const intercept = setupServer(...mock.handlers);
const tally = newTally();
let close: () => Promise<void>;
let targets: Seeded[];

beforeAll(async () => {
  intercept.listen({ onUnhandledRequest: 'bypass' });
  const server = await serverTarget();
  close = server.close;
  targets = [await seed(server.target), await seed(mockSide)];
}, 180_000);
afterAll(async () => {
  console.log(report(`server (${process.env.SITEAUDIT_TEST_DB?.startsWith('postgres') ? 'postgres' : 'sqlite'}) and mock`, tally));
  intercept.close();
  // The server's close waits for the crawls the run launched (some render with Chromium).
  await close();
}, 300_000);

it(`answers ${FUZZ_RUNS} generated requests like the mock, without a 5xx, with catalogue problems, and loses nothing on a refusal`, async () => {
  await runFuzz(targets, tally, FUZZ_RUNS);
}, 60_000 + FUZZ_RUNS * 200);
