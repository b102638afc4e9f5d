import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { startSite, type Site } from '../support/site.js';
import { OpenApiChecker, recordingFetch, type Exchange } from '../support/openapi-conformance.js';
import { BEHAVIOUR_PLANS, behaviourSuite, type Target } from './suite.js';

let h: Harness;
let site: Site;
let receiver: ReturnType<typeof createServer>;
let target: Target;
const exchanges: Promise<Exchange>[] = [];

beforeAll(async () => {
  // No network in tests: reverse DNS is off (its adapter is tested against a stand-in in logs.test.ts).
  h = await startHarness({ plans: BEHAVIOUR_PLANS, logs: { resolver: null } });
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
    fetch: recordingFetch(exchanges),
  };
});
afterAll(async () => {
  await h.close();
  await site.close();
  receiver.close();
});

behaviourSuite(() => target);

describe('docs/openapi.json', () => {
  it('describes every answer of the behaviour suite: status, headers and body, nothing undocumented', async () => {
    const answers = await Promise.all(exchanges);
    expect(answers.length).toBeGreaterThan(50);
    const checker = new OpenApiChecker();
    const problems = [...new Set(answers.flatMap((x) => checker.check(x)))];
    expect(problems).toEqual([]);

    // The check is strict: an extra property, an undocumented header or status is a failure.
    const read = answers.find((x) => x.method === 'GET' && /^\/v1\/projects\/[^/]+$/.test(x.path) && x.status === 200)!;
    const body = JSON.parse(read.text!) as { data: Record<string, unknown> };
    const doctored = JSON.stringify({ data: { ...body.data, surprise: 1 } });
    expect(checker.check({ ...read, text: doctored }).join()).toMatch(/must NOT have additional properties/);
    expect(checker.check({ ...read, headers: { ...read.headers, 'x-surprise': '1' } }).join()).toMatch(/x-surprise is not documented/);
    expect(checker.check({ ...read, status: 418 }).join()).toMatch(/418 is not documented/);
    const problem = answers.find((x) => x.status === 404)!;
    expect(checker.check({ ...problem, text: problem.text!.replace('"not_found"', '"conflict"') }).join()).toMatch(/must be equal to one of the allowed values/);
  });
});
