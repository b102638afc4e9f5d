/**
 * One team under concurrent load (docs/reliability.md, "Concurrency on PostgreSQL"): thousands of
 * mixed calls — reads, paginated lists, 304s, writes under the team lock, crawl launches and
 * keyword tracking with shared idempotency keys, deletions — at concurrency 12 never answer 5xx,
 * and the rate limits stay exact: every unit charged is one an answer was charged (its cost, 0
 * for a 304 or a 429), never more than the window allows, across minute and day windows.
 *
 * SITEAUDIT_CONCURRENCY_CALLS sets the number of mixed calls (default 2,000; the larger run of
 * docs/reliability.md used 10,000).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { manualClock } from '../../../../tests/support/http.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const CALLS = Number(process.env.SITEAUDIT_CONCURRENCY_CALLS ?? 2_000);
const CONCURRENCY = 12;
/**
 * Calls per minute window: they ask for about 1,000 units, a little more than the limit, so most
 * are charged (a deadlock needs concurrent writes of the counters) and the last are refused.
 */
const PER_MINUTE = 800;
const MINUTE_LIMIT = 900;
const MINUTES = Math.ceil(CALLS / PER_MINUTE);
/** Room for the earlier minutes and half of the last: the day window refuses in the last one. */
const DAY_LIMIT = (MINUTES - 1) * MINUTE_LIMIT + MINUTE_LIMIT / 2;
const START = '2025-03-12T10:00:00.000Z';

let h: Harness;
let site: Site;
const serverErrors: unknown[] = [];
const time = manualClock(START);

beforeAll(async () => {
  site = await startSite();
  h = await startHarness({
    clock: time.clock,
    plans: {
      agency: { rateLimits: { minute: MINUTE_LIMIT, day: DAY_LIMIT }, limits: { 'crawls.monthly': null } },
      pro: { rateLimits: { minute: 37, day: null } },
    },
    logger: { error: (_message, error) => serverErrors.push(error) },
  });
});
afterAll(async () => {
  await h?.server.jobs.idle();
  await h?.close();
  await site?.close();
});

interface Answer {
  kind: string;
  status: number;
  cost: string | null;
  code?: string;
  window?: string;
  id?: string;
}

/** Units left in each window, from the `RateLimit` header (`"minute";r=12;t=40, "day";r=…`). */
function remainingOf(res: Response): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of (res.headers.get('ratelimit') ?? '').matchAll(/"(\w+)";r=(\d+)/g)) out[m[1]] = Number(m[2]);
  return out;
}

async function answer(kind: string, res: Response): Promise<Answer> {
  const text = await res.text();
  const out: Answer = { kind, status: res.status, cost: res.headers.get('x-request-cost') };
  if ((res.headers.get('content-type') ?? '').startsWith('application/problem+json')) {
    const body = JSON.parse(text);
    out.code = body.code;
    out.window = body.window;
  } else if (res.status === 201 || res.status === 202) {
    out.id = JSON.parse(text).data.id;
  }
  return out;
}

describe('mixed concurrent calls of one team', () => {
  it(`answer no 5xx and charge exactly the units of the answers (${CALLS} calls at concurrency ${CONCURRENCY})`, async () => {
    // Fixtures, charged like any call: counted from the headers read at the end of each minute.
    const stable = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/` } })).json()).data;
    const renamed = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://renamed.example/' } })).json()).data;
    // Never crawled nor changed, so its ETag holds: If-None-Match answers 304.
    const quiet = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://quiet.example/' } })).json()).data;
    const campaigns: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.call('POST', `/v1/projects/${stable.id}/campaigns`, { body: { name: `Load ${i}`, start_url: `${site.url}/`, max_depth: 1, max_urls: 5 } });
      campaigns.push((await res.json()).data.id);
    }
    const etag = (await h.call('GET', `/v1/projects/${quiet.id}`)).headers.get('etag')!;
    let cursor: string | null = null;
    const created: string[] = [];

    // Each kind: its cost in the contract, the answers it may give besides 429, and the call.
    // Calls i and i + 12 of a kind with a shared key run side by side: the key races itself.
    type Kind = { name: string; cost: number; statuses: number[]; call: (i: number) => Promise<Response> };
    const shared = (i: number, salt: string) => `${salt}-${Math.floor(i / (2 * KINDS.length))}`;
    const KINDS: Kind[] = [
      { name: 'me', cost: 1, statuses: [200], call: () => h.call('GET', '/v1/me') },
      {
        name: 'list page',
        cost: 1,
        statuses: [200],
        call: async () => {
          const res = await h.call('GET', `/v1/projects?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          if (res.status === 200) {
            const body = await res.clone().json();
            cursor = body.meta?.next_cursor ?? null;
          }
          return res;
        },
      },
      { name: 'not modified', cost: 0, statuses: [304], call: () => h.call('GET', `/v1/projects/${quiet.id}`, { headers: { 'if-none-match': etag } }) },
      { name: 'create', cost: 1, statuses: [201, 409], call: (i) => h.call('POST', '/v1/projects', { body: { url: `https://load-${shared(i, 'p')}.example/` }, headers: { 'idempotency-key': shared(i, 'create') } }) },
      { name: 'rename', cost: 1, statuses: [200], call: (i) => h.call('PATCH', `/v1/projects/${renamed.id}`, { body: { name: `Renamed ${i % 7}` } }) },
      {
        name: 'launch',
        cost: 1,
        statuses: [202, 409],
        call: (i) => h.call('POST', `/v1/campaigns/${campaigns[Math.floor(i / (2 * KINDS.length)) % campaigns.length]}/crawls`, { headers: { 'idempotency-key': shared(i, 'launch') } }),
      },
      { name: 'scorecard', cost: 5, statuses: [200], call: () => h.call('GET', `/v1/projects/${stable.id}/scorecard`) },
      { name: 'crawls', cost: 1, statuses: [200], call: () => h.call('GET', `/v1/projects/${stable.id}/crawls?limit=3`) },
      {
        name: 'track',
        cost: 1,
        statuses: [200],
        call: (i) => h.call('POST', `/v1/projects/${renamed.id}/tracked-keywords`, { body: { keywords: [`kw ${i % 400}`] }, headers: { 'idempotency-key': randomUUID() } }),
      },
      {
        name: 'delete',
        cost: 1,
        statuses: [204, 404],
        call: async () => {
          const id = created.shift();
          return h.call('DELETE', `/v1/projects/${id ?? randomUUID()}`);
        },
      },
      { name: 'usage', cost: 1, statuses: [200], call: () => h.call('GET', '/v1/usage') },
      { name: 'campaigns', cost: 1, statuses: [200], call: () => h.call('GET', `/v1/projects/${stable.id}/campaigns`) },
    ];

    const unexpected: Answer[] = [];
    let dayCharged = 0;
    let refusedByDay = 0;
    let refusedByMinute = 0;
    const statuses = new Map<number, number>();
    const fixtures = remainingOf(await h.call('GET', '/v1/me'));
    // Fixtures plus that call, from the header after it.
    let fixtureUnits = MINUTE_LIMIT - fixtures.minute;

    for (let minute = 0; minute < MINUTES; minute++) {
      const calls = Math.min(PER_MINUTE, CALLS - minute * PER_MINUTE);
      const answers: Answer[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < calls) {
            const i = minute * PER_MINUTE + next++;
            const kind = KINDS[i % KINDS.length];
            const res = await kind.call(i);
            const a = await answer(kind.name, res);
            if (kind.name === 'create' && a.id) created.push(a.id);
            answers.push(a);
          }
        }),
      );

      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      let charged = 0;
      for (const a of answers) {
        const kind = KINDS.find((k) => k.name === a.kind)!;
        if (a.status === 429) {
          expect(a.code).toBe('rate_limited');
          expect(a.cost).toBe('0');
          if (a.window === 'day') refusedByDay++;
          else refusedByMinute++;
          continue;
        }
        if (!kind.statuses.includes(a.status)) unexpected.push(a);
        // A 304 gives its units back; anything else answered after the limit paid its cost.
        expect(a.cost).toBe(String(kind.cost));
        charged += kind.cost;
      }
      expect(unexpected).toEqual([]);

      // What the windows say now: the minute holds exactly this minute's charges, the day all.
      const usage = await h.call('GET', '/v1/usage');
      const own = usage.status === 200 ? 1 : 0;
      const left = remainingOf(usage);
      expect(MINUTE_LIMIT - left.minute).toBe(fixtureUnits + charged + own);
      dayCharged += fixtureUnits + charged + own;
      expect(DAY_LIMIT - left.day).toBe(dayCharged);
      if (usage.status === 200) {
        const windows = (await usage.json()).data.rate_limits as { window: string; used: number }[];
        expect(windows.find((w) => w.window === 'minute')!.used).toBe(fixtureUnits + charged + 1);
        expect(windows.find((w) => w.window === 'day')!.used).toBe(dayCharged);
      } else {
        await expect(usage.json()).resolves.toMatchObject({ code: 'rate_limited' });
      }
      // Nothing passed beyond either limit.
      expect(fixtureUnits + charged + own).toBeLessThanOrEqual(MINUTE_LIMIT);
      expect(dayCharged).toBeLessThanOrEqual(DAY_LIMIT);

      fixtureUnits = 0;
      time.advance(60_000);
    }
    // The load asked for more than the limits allow: both windows refused calls.
    expect(refusedByMinute).toBeGreaterThan(0);
    expect(refusedByDay).toBeGreaterThan(0);
    if (process.env.SITEAUDIT_CONCURRENCY_REPORT) {
      console.info(JSON.stringify({ calls: CALLS, concurrency: CONCURRENCY, statuses: Object.fromEntries(statuses), unitsCharged: dayCharged, refusedByMinute, refusedByDay }));
    }
    expect(serverErrors).toEqual([]);
  }, Math.max(120_000, CALLS * 100));
});

describe('parallel calls against the units left', () => {
  it('pass exactly as many as fit: 7 of 12 cost-5 calls with 36 units, then 1 of 8 cost-1 calls', async () => {
    const token = await h.tokenFor({ team: 'burst', plan: 'pro' });
    // A fresh minute: the team's 37 units are all left.
    time.advance(60_000);
    const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: 'https://burst.example/' } })).json()).data;
    const scorecards = await Promise.all(Array.from({ length: 12 }, () => h.call('GET', `/v1/projects/${project.id}/scorecard`, { token })));
    const statuses = scorecards.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    await Promise.all(scorecards.map((r) => r.body?.cancel()));

    // 37 - 1 (the project) - 35 = 1 unit left, which the cost-5 calls could not use.
    const reads = await Promise.all(Array.from({ length: 8 }, () => h.call('GET', `/v1/projects/${project.id}`, { token })));
    expect(reads.filter((r) => r.status === 200)).toHaveLength(1);
    expect(reads.filter((r) => r.status === 429)).toHaveLength(7);
    await Promise.all(reads.map((r) => r.body?.cancel()));
  });
});

describe('parallel launches with one idempotency key', () => {
  it('launch one crawl; every other answer replays it or says the key is in use, never 5xx', async () => {
    const token = await h.tokenFor({ team: 'launcher' });
    time.advance(60_000);
    const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: `${site.url}/` } })).json()).data;
    const campaign = (
      await (await h.call('POST', `/v1/projects/${project.id}/campaigns`, { token, body: { name: 'Once', start_url: `${site.url}/`, max_depth: 1, max_urls: 5 } })).json()
    ).data;
    for (let round = 0; round < 3; round++) {
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 50 }, async () => answer('launch', await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { token, headers: { 'idempotency-key': key } }))),
      );
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      for (const a of answers) {
        if (a.status !== 202) expect(a).toMatchObject({ status: 409, code: 'idempotency.key_in_use' });
      }
      // The first answer and its replays: one crawl.
      const ids = new Set(answers.filter((a) => a.status === 202).map((a) => a.id));
      expect(ids.size).toBe(1);
      const crawls = (await (await h.call('GET', `/v1/projects/${project.id}/crawls`, { token })).json()).data as { id: string }[];
      expect(crawls).toHaveLength(round + 1);
      expect(crawls.map((c) => c.id)).toContain([...ids][0]);
      await h.server.jobs.idle();
    }
    expect(serverErrors).toEqual([]);
  });
});
