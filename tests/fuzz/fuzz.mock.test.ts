/** The fuzz suite against the mock alone (tests/support/fuzz-suite.ts); fuzz.server.test.ts compares it with the server. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, it } from 'vitest';
import { fuzzRuns, newTally, report, runFuzz, seed, type Seeded } from '../support/fuzz-suite.js';
import { mockTarget } from '../support/fuzz-targets.js';

/** The mock alone is fast: its bounded run is the longer one. */
const FUZZ_RUNS = fuzzRuns(2_000);
const { mock, target } = mockTarget();
const server = setupServer(...mock.handlers);
const tally = newTally();
let seeded: Seeded;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  seeded = await seed(target);
});
afterAll(() => {
  server.close();
  console.log(report('mock', tally));
});

it(`answers ${FUZZ_RUNS} generated requests without a 5xx, with catalogue problems, and loses nothing on a refusal`, async () => {
  await runFuzz([seeded], tally, FUZZ_RUNS);
}, 30_000 + FUZZ_RUNS * 50);
