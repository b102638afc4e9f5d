import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { seed, type Seeded } from '../support/fuzz-suite.js';
import { mockTarget } from '../support/fuzz-targets.js';
import { hostileInputSuite } from './suite.js';

const { mock, target } = mockTarget();
const server = setupServer(...mock.handlers);
let seeded: Seeded;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  seeded = await seed(target);
});
afterAll(() => server.close());

hostileInputSuite(() => seeded);
