import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { createMockApi } from '@siteaudit/mock';
import { SCOPES } from '@siteaudit/schema';
import { behaviourSuite, type Target } from './suite.js';

// The mock finishes pending work before each request, so waitForCrawl ends on its next poll.
const mock = createMockApi({ autoAdvance: true });
const server = setupServer(...mock.handlers);
let target: Target;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await mock.admin.createTeam({ slug: 'behaviour', name: 'Behaviour', plan: 'agency' });
  await mock.admin.addMember({ team: 'behaviour', email: 'owner@behaviour.test', name: 'Owner', role: 'owner' });
  const { token } = await mock.admin.createToken({ team: 'behaviour', member: 'owner@behaviour.test', name: 'suite', scopes: SCOPES });
  target = {
    name: 'mock',
    baseUrl: 'https://api.siteaudit.dev',
    token,
    tokenWith: async (scopes) => (await mock.admin.createToken({ team: 'behaviour', member: 'owner@behaviour.test', name: 'limited', scopes })).token,
    siteUrl: 'https://www.example.com/',
    webhookUrl: 'https://hooks.example.com/siteaudit',
  };
});
afterAll(() => server.close());

behaviourSuite(() => target);
