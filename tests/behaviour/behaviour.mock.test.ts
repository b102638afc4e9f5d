import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { createMockApi } from '@siteaudit/mock';
import { SCOPES } from '@siteaudit/schema';
import { BEHAVIOUR_PLANS, behaviourSuite, type Target } from './suite.js';

// The mock finishes pending work before each request, so waitForCrawl ends on its next poll.
const mock = createMockApi({ autoAdvance: true, plans: BEHAVIOUR_PLANS });
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
    now: () => mock.now(),
    async teamToken(slug, plan) {
      mock.admin.createTeam({ slug, name: slug, plan });
      mock.admin.addMember({ team: slug, email: `owner@${slug}.test`, name: 'Owner', role: 'owner' });
      return mock.admin.createToken({ team: slug, member: `owner@${slug}.test`, name: 'suite', scopes: SCOPES }).token;
    },
    setPlan: async (slug, plan) => mock.admin.setPlan({ team: slug, plan }),
  };
});
afterAll(() => server.close());

behaviourSuite(() => target);
