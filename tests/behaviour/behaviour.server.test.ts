import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startHarness, type Harness } from '../../packages/server/test/db/harness.js';
import { startSite, type Site } from '../../packages/server/test/db/support/site.js';
import { BEHAVIOUR_PLANS, behaviourSuite, type Target } from './suite.js';

let h: Harness;
let site: Site;
let receiver: ReturnType<typeof createServer>;
let target: Target;

beforeAll(async () => {
  h = await startHarness({ plans: BEHAVIOUR_PLANS });
  site = await startSite();
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  target = {
    name: 'server',
    baseUrl: h.url,
    token: h.token,
    tokenWith: (scopes) => h.tokenFor({ team: 'acme', scopes }),
    siteUrl: `${site.url}/`,
    // allowPrivateAddresses lets the server deliver to a local receiver (http in tests).
    webhookUrl: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    now: () => new Date(),
    teamToken: (slug, plan) => h.tokenFor({ team: slug, plan }),
    setPlan: async (slug, plan) => {
      await h.server.admin.setPlan({ team: slug, plan });
    },
  };
});
afterAll(async () => {
  await h.close();
  await site.close();
  receiver.close();
});

behaviourSuite(() => target);
