/**
 * Rate limits (spec: Limits; docs/decisions/rate-limits.md): per team, in cost units, over a
 * minute and a day window aligned on the clock; headers on every answer; 429 `rate_limited`
 * with Retry-After and window / retry_after / upgrade_to; a 429 costs nothing; exact under
 * concurrency; `GET /v1/usage` says the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectProblem, manualClock } from '../support/http.js';
import type { RulesHarness, RulesTarget } from './target.js';

// 15 s past the minute, 10:00:15 UTC: the minute resets in 45 s, the day in 50 385 s.
const START = '2025-03-12T10:00:15.000Z';
const SECONDS_TO_MIDNIGHT = 14 * 3600 - 15;

function remaining(res: Response): number {
  return Number(res.headers.get('x-ratelimit-remaining'));
}

export function rateLimitRules(target: RulesTarget): void {
  const opened: RulesHarness[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });
  async function harness(options: Parameters<RulesTarget['open']>[0] = {}): Promise<RulesHarness> {
    const h = await target.open(options);
    opened.push(h);
    return h;
  }

  describe('headers', () => {
    it('are on every answer, in cost units, with the reset in seconds', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock });
      const res = await h.call('GET', '/v1/projects');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-cost')).toBe('1');
      expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60, "day";q=100000;w=86400');
      expect(res.headers.get('ratelimit')).toBe(`"minute";r=599;t=45, "day";r=99999;t=${SECONDS_TO_MIDNIGHT}`);
      expect(res.headers.get('x-ratelimit-limit')).toBe('600');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('599');
      expect(res.headers.get('x-ratelimit-reset')).toBe('45');

      time.advance(30_000);
      const later = await h.call('GET', '/v1/projects');
      expect(later.headers.get('x-ratelimit-reset')).toBe('15');
      expect(later.headers.get('x-ratelimit-remaining')).toBe('598');
    });

    it('count the cost of each operation from the contract: the scorecard costs 5', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock });
      const project = await h.call('POST', '/v1/projects', { body: { url: 'https://cost.example/' } });
      expect(project.headers.get('x-request-cost')).toBe('1');
      const { id } = (await project.json()).data;
      const before = remaining(await h.call('GET', `/v1/projects/${id}`));

      const scorecard = await h.call('GET', `/v1/projects/${id}/scorecard`);
      expect(scorecard.headers.get('x-request-cost')).toBe('5');
      expect(remaining(scorecard)).toBe(before - 5);
      expect(remaining(await h.call('GET', `/v1/projects/${id}`))).toBe(before - 6);
    });

    it('are on refusals after authentication too', async () => {
      const h = await harness();
      const readOnly = await h.tokenFor({ scopes: ['projects:read'] });
      const res = await h.call('POST', '/v1/projects', { token: readOnly, body: { url: 'https://x.example/' } });
      expect(res.status).toBe(403);
      expect(res.headers.get('x-ratelimit-limit')).toBe('600');
      expect(res.headers.get('x-request-cost')).toBe('1');
    });
  });

  describe('exhausting the minute window', () => {
    it('answers 429 rate_limited with Retry-After, window, retry_after and upgrade_to', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { pro: { rateLimits: { minute: 5 } } } });
      const token = await h.tokenFor({ team: 'limited', plan: 'pro' });
      for (let i = 0; i < 5; i++) expect((await h.call('GET', '/v1/projects', { token })).status).toBe(200);

      const res = await h.call('GET', '/v1/projects', { token });
      expect(res.headers.get('retry-after')).toBe('45');
      expect(res.headers.get('x-request-cost')).toBe('0');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      const body = await expectProblem(res, 429, 'rate_limited');
      expect(body.window).toBe('minute');
      expect(body.retry_after).toBe(45);
      expect(body.upgrade_to).toBe('agency');

      // Other operations of the team are refused as well, even writes.
      await expectProblem(await h.call('POST', '/v1/projects', { token, body: { url: 'https://no.example/' } }), 429, 'rate_limited');
    });

    it('opens again when the next minute starts, on the clock', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { pro: { rateLimits: { minute: 2 } } } });
      const token = await h.tokenFor({ team: 'windowed', plan: 'pro' });
      await h.call('GET', '/v1/me', { token });
      await h.call('GET', '/v1/me', { token });
      time.set('2025-03-12T10:00:59.999Z');
      expect((await h.call('GET', '/v1/me', { token })).status).toBe(429);
      time.set('2025-03-12T10:01:00.000Z');
      const open = await h.call('GET', '/v1/me', { token });
      expect(open.status).toBe(200);
      expect(open.headers.get('x-ratelimit-remaining')).toBe('1');
      expect(open.headers.get('x-ratelimit-reset')).toBe('60');
    });

    it('charges nothing for a 429', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { pro: { rateLimits: { minute: 3 } } } });
      const token = await h.tokenFor({ team: 'refunded', plan: 'pro' });
      for (let i = 0; i < 3; i++) expect((await h.call('GET', '/v1/me', { token })).status).toBe(200);
      for (let i = 0; i < 10; i++) expect((await h.call('GET', '/v1/me', { token })).status).toBe(429);

      time.advance(60_000);
      const usage = (await (await h.call('GET', '/v1/usage', { token })).json()).data;
      const day = usage.rate_limits.find((w: { window: string }) => w.window === 'day');
      const minute = usage.rate_limits.find((w: { window: string }) => w.window === 'minute');
      // 3 calls before and this one: the ten refusals cost nothing.
      expect(day.used).toBe(4);
      expect(minute.used).toBe(1);
    });
  });

  describe('the team envelope', () => {
    it('is shared by every token of the team and not by another team', async () => {
      const h = await harness({ plans: { pro: { rateLimits: { minute: 4 } } } });
      const first = await h.tokenFor({ team: 'shared', plan: 'pro' });
      const second = await h.tokenFor({ team: 'shared', plan: 'pro' });
      const outsider = await h.tokenFor({ team: 'outsider', plan: 'pro' });

      expect((await h.call('GET', '/v1/me', { token: first })).status).toBe(200);
      expect(remaining(await h.call('GET', '/v1/me', { token: second }))).toBe(2);
      expect((await h.call('GET', '/v1/me', { token: first })).status).toBe(200);
      expect((await h.call('GET', '/v1/me', { token: second })).status).toBe(200);
      expect((await h.call('GET', '/v1/me', { token: first })).status).toBe(429);
      expect((await h.call('GET', '/v1/me', { token: second })).status).toBe(429);

      const other = await h.call('GET', '/v1/me', { token: outsider });
      expect(other.status).toBe(200);
      expect(remaining(other)).toBe(3);
    });
  });

  describe('under concurrency', () => {
    it('lets exactly as many calls pass as fit: 10 of 25 parallel GETs', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { agency: { rateLimits: { minute: 10 } } } });
      const answers = await Promise.all(Array.from({ length: 25 }, () => h.call('GET', '/v1/projects')));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      const remainders = answers.filter((r) => r.status === 200).map(remaining).sort((a, b) => a - b);
      expect(remainders).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await Promise.all(answers.map((r) => r.arrayBuffer()));
    });
  });

  describe('the day window', () => {
    it('refuses past the day limit with window day and the seconds to midnight UTC', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { agency: { rateLimits: { minute: null, day: 5 } } } });
      for (let i = 0; i < 5; i++) {
        const res = await h.call('GET', '/v1/me');
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-policy')).toBe('"day";q=5;w=86400');
      }
      const res = await h.call('GET', '/v1/me');
      expect(res.headers.get('retry-after')).toBe(String(SECONDS_TO_MIDNIGHT));
      const body = await expectProblem(res, 429, 'rate_limited');
      expect(body.window).toBe('day');
      expect(body.retry_after).toBe(SECONDS_TO_MIDNIGHT);
      expect(body.upgrade_to).toBeNull();

      // A new minute does not help; a new day does.
      time.advance(120_000);
      expect((await h.call('GET', '/v1/me')).status).toBe(429);
      time.set('2025-03-13T00:00:00.000Z');
      expect((await h.call('GET', '/v1/me')).status).toBe(200);  });

    it('names the plan that lifts the day limit', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { pro: { rateLimits: { minute: 100, day: 12 } } } });
      const token = await h.tokenFor({ team: 'daily', plan: 'pro' });
      for (let i = 0; i < 12; i++) expect((await h.call('GET', '/v1/me', { token })).status).toBe(200);
      const body = await expectProblem(await h.call('GET', '/v1/me', { token }), 429, 'rate_limited');
      expect(body).toMatchObject({ window: 'day', retry_after: SECONDS_TO_MIDNIGHT, upgrade_to: 'agency' });
    });
  });

  describe('a call that does not fit', () => {
    it('is refused whole and charges nothing: a cost-5 call with 3 units left', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock, plans: { pro: { rateLimits: { minute: 6 } } } });
      const token = await h.tokenFor({ team: 'tight', plan: 'pro' });
      const project = (await (await h.call('POST', '/v1/projects', { token, body: { url: 'https://tight.example/' } })).json()).data;
      await h.call('GET', `/v1/projects/${project.id}`, { token });
      const third = await h.call('GET', `/v1/projects/${project.id}`, { token });
      expect(remaining(third)).toBe(3);

      const scorecard = await h.call('GET', `/v1/projects/${project.id}/scorecard`, { token });
      expect(scorecard.headers.get('x-ratelimit-remaining')).toBe('3');
      const body = await expectProblem(scorecard, 429, 'rate_limited');
      expect(body.window).toBe('minute');

      for (let i = 2; i >= 0; i--) {
        const res = await h.call('GET', `/v1/projects/${project.id}`, { token });
        expect(res.status).toBe(200);
        expect(remaining(res)).toBe(i);
      }
      expect((await h.call('GET', `/v1/projects/${project.id}`, { token })).status).toBe(429);
    });
  });

  describe('unlimited windows', () => {
    it('send the cost but no limit headers', async () => {
      const h = await harness({ plans: { agency: { rateLimits: { minute: null, day: null } } } });
      const res = await h.call('GET', '/v1/me');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-cost')).toBe('1');
      expect(res.headers.get('ratelimit-policy')).toBeNull();
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    });
  });

  describe('GET /v1/usage', () => {
    it('reports both windows and the quotas, and costs what it reports', async () => {
      const time = manualClock(START);
      const h = await harness({ clock: time.clock });
      const res = await h.call('GET', '/v1/usage');
      expect(res.status).toBe(200);
      const usage = (await res.json()).data;
      expect(usage.rate_limits).toEqual([
        { window: 'minute', window_seconds: 60, unit: 'cost', limit: 600, used: 1, remaining: 599, resets_in_seconds: 45 },
        { window: 'day', window_seconds: 86_400, unit: 'cost', limit: 100_000, used: 1, remaining: 99_999, resets_in_seconds: SECONDS_TO_MIDNIGHT },
      ]);
      const quotas = Object.fromEntries(usage.quotas.map((q: { entitlement: string }) => [q.entitlement, q]));
      expect(quotas['projects.max']).toEqual({ entitlement: 'projects.max', used: 0, limit: null, remaining: null });
      expect(quotas['crawls.monthly']).toEqual({ entitlement: 'crawls.monthly', used: 0, limit: 500, remaining: 500 });
    });
  });
}
