/**
 * The pure rules the server and the mock both apply, tested once where they live. The behaviour
 * suite (tests/behaviour) checks that both sides answer with them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLANS,
  accessRefusal,
  allowedMethods,
  matchOperation,
  canonicalJson,
  cursorBinding,
  decideRate,
  defaultCampaignBounds,
  exportFilename,
  firstFreeSlug,
  healthScore,
  ifNoneMatchMatches,
  nextRunAt,
  normaliseSchedule,
  normaliseUrl,
  parseIdempotencyKey,
  planRefusal,
  positionMovement,
  positionsPeriod,
  quotaOf,
  rateLimitHeaders,
  rateLimitRefusal,
  readListedKeywords,
  requestFingerprintText,
  resolvePlans,
  searchConsolePeriod,
  slugify,
  visibilityPercent,
  type ListedKeyword,
} from '../src/rules/index.js';

const NOW = new Date('2026-01-15T10:00:20Z'); // a Thursday

describe('rate limits', () => {
  const limits = { minute: 10, day: 100 };

  it('charges nothing when the cost does not fit, and names the window that frees up last', () => {
    const refused = decideRate({ minute: 10, day: 100 }, 1, limits, NOW);
    expect(refused).toMatchObject({ ok: false, exhausted: 'day' });
    expect(refused.states.map((s) => s.used)).toEqual([10, 100]);
    const minute = decideRate({ minute: 9, day: 5 }, 2, limits, NOW);
    expect(minute).toMatchObject({ ok: false, exhausted: 'minute' });
    const ok = decideRate({ minute: 9, day: 5 }, 1, limits, NOW);
    expect(ok.ok).toBe(true);
    expect(ok.states.map((s) => [s.window, s.used, s.remaining, s.resetsInSeconds])).toEqual([
      ['minute', 10, 0, 40],
      ['day', 6, 94, 50_400 - 20],
    ]);
  });

  it('sends the draft -10 headers for limited windows only', () => {
    const { states } = decideRate({ minute: 0, day: 0 }, 2, limits, NOW);
    expect(rateLimitHeaders(states, 2)).toEqual({
      'X-Request-Cost': '2',
      'RateLimit-Policy': '"minute";q=10;w=60, "day";q=100;w=86400',
      RateLimit: '"minute";r=8;t=40, "day";r=98;t=50380',
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '8',
      'X-RateLimit-Reset': '40',
    });
    const unlimited = decideRate({ minute: 0, day: 0 }, 1, { minute: null, day: null }, NOW);
    expect(rateLimitHeaders(unlimited.states, 1)).toEqual({ 'X-Request-Cost': '1' });
  });

  it('answers a 429 with Retry-After and the first plan with a larger window', () => {
    const refused = decideRate({ minute: 60, day: 0 }, 1, DEFAULT_PLANS.starter.rateLimits, NOW);
    if (refused.ok) throw new Error('expected a refusal');
    const { extras, headers } = rateLimitRefusal(refused, DEFAULT_PLANS, DEFAULT_PLANS.starter);
    expect(extras).toEqual({ window: 'minute', retry_after: 40, upgrade_to: 'pro' });
    expect(headers).toMatchObject({ 'Retry-After': '40', 'X-Request-Cost': '0' });
  });
});

describe('idempotency', () => {
  it('reads a bare or structured-field key and refuses what is not printable ASCII', () => {
    expect(parseIdempotencyKey(' abc ')).toBe('abc');
    expect(parseIdempotencyKey('"a\\"b"')).toBe('a"b');
    for (const bad of ['', '""', 'é', 'x'.repeat(256), 'a\tb']) expect(parseIdempotencyKey(bad), bad).toBeNull();
  });

  it('fingerprints two bodies that differ only in key order alike', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
    expect(requestFingerprintText('createProject', {}, {}, { url: 'u', name: 'n' })).toBe(
      requestFingerprintText('createProject', {}, {}, { name: 'n', url: 'u' }),
    );
    expect(requestFingerprintText('getMe', {}, {}, undefined)).toBe('["getMe",{},{},null]');
  });
});

describe('schedules', () => {
  it('fills the blanks of a schedule', () => {
    expect(normaliseSchedule({ frequency: 'weekly' })).toEqual({ frequency: 'weekly', day: 'monday', time: '03:00', paused: false });
    expect(normaliseSchedule({ frequency: 'monthly', time: '12:00' })).toEqual({ frequency: 'monthly', day: '1', time: '12:00', paused: false });
    expect(normaliseSchedule({ frequency: 'daily', day: 'monday' })).toEqual({ frequency: 'daily', day: null, time: '03:00', paused: false });
    expect(normaliseSchedule({ frequency: 'manual', day: 'monday', time: '10:00', paused: true })).toEqual({ frequency: 'manual', day: null, time: null, paused: true });
  });

  it('runs next strictly after now, in UTC', () => {
    const next = (input: Parameters<typeof normaliseSchedule>[0], now = NOW) => nextRunAt(normaliseSchedule(input), now)?.toISOString() ?? null;
    expect(next({ frequency: 'daily', time: '10:00' })).toBe('2026-01-16T10:00:00.000Z');
    expect(next({ frequency: 'daily', time: '10:01' })).toBe('2026-01-15T10:01:00.000Z');
    expect(next({ frequency: 'weekly', day: 'thursday', time: '09:00' })).toBe('2026-01-22T09:00:00.000Z');
    expect(next({ frequency: 'weekly', day: 'thursday', time: '11:00' })).toBe('2026-01-15T11:00:00.000Z');
    expect(next({ frequency: 'weekly', day: 'sunday' })).toBe('2026-01-18T03:00:00.000Z');
    expect(next({ frequency: 'monthly', day: '15', time: '09:00' })).toBe('2026-02-15T09:00:00.000Z');
    expect(next({ frequency: 'monthly', day: '1' }, new Date('2026-12-20T00:00:00Z'))).toBe('2027-01-01T03:00:00.000Z');
    expect(next({ frequency: 'weekly', paused: true })).toBeNull();
    expect(next({ frequency: 'manual' })).toBeNull();
  });
});

describe('periods', () => {
  it('ends today for positions and yesterday for Search Console, both ends inclusive', () => {
    expect(positionsPeriod('7d', NOW)).toEqual({ preset: '7d', from: '2026-01-09', to: '2026-01-15' });
    expect(searchConsolePeriod('28d', NOW)).toEqual({ preset: '28d', from: '2025-12-18', to: '2026-01-14' });
  });
});

describe('rank tracking', () => {
  it('weighs positions by the CTR curve, 0 past the first page', () => {
    expect(visibilityPercent([])).toBe(0);
    expect(visibilityPercent([1])).toBe(100);
    expect(visibilityPercent([3])).toBe(38.6);
    expect(visibilityPercent([1, 11, null])).toBe(33.33);
  });

  it('compares the latest position with the one at the start of the period', () => {
    const at = (date: string, position: number | null) => ({ date, position });
    expect(positionMovement(at('2026-01-01', 5), at('2026-01-10', 3))).toBe('improved');
    expect(positionMovement(at('2026-01-01', 3), at('2026-01-10', 5))).toBe('declined');
    expect(positionMovement(at('2026-01-01', null), at('2026-01-10', 50))).toBe('entered');
    expect(positionMovement(at('2026-01-01', 50), at('2026-01-10', null))).toBe('exited');
    expect(positionMovement(at('2026-01-10', 5), at('2026-01-10', 3))).toBeNull();
    expect(positionMovement(undefined, at('2026-01-10', 3))).toBeNull();
  });

  it('sums up the listed keywords, paused ones included', () => {
    const history = new Map([
      ['2026-01-14', 4],
      ['2026-01-08', 9],
    ]);
    const keyword = (name: string, latest: ListedKeyword['latest'], active = true): ListedKeyword => ({
      keyword: name,
      active,
      latest,
      start: latest && { date: '2025-12-17', position: 8 },
      measuredOn: (day) => (history.has(day) ? { date: day, position: history.get(day)! } : undefined),
      search_volume: null,
      keyword_difficulty: null,
      search_intent: null,
    });
    const read = readListedKeywords(
      [
        keyword('b', { date: '2026-01-15', position: 2, url: 'https://example.com/b', serp_features: ['images'] }),
        keyword('a', { date: '2026-01-15', position: null, url: 'https://example.com/a', serp_features: [] }, false),
        keyword('c', undefined),
      ],
      true,
    );
    expect(read.keywords.map((k) => [k.keyword, k.active, k.measured, k.position, k.url])).toEqual([
      ['a', false, true, null, null],
      ['b', true, true, 2, 'https://example.com/b'],
      ['c', true, false, null, null],
    ]);
    expect(read.keywords[1]).toMatchObject({ delta_1d: 2, delta_7d: 7, delta_30d: null, serp_features: ['images'] });
    expect(read.summary).toEqual({
      average_position: 2,
      ranking_keywords: 1,
      measured_keywords: 2,
      tracked_keywords: 3,
      top3: 1,
      top10: 1,
      visibility_percent: 27.54,
      improved: 1,
      declined: 0,
      entered: 0,
      exited: 1,
    });
    expect(read).toMatchObject({ status: 'active', activeKeywords: 2, lastTrackedOn: '2026-01-15' });
    expect(readListedKeywords([], false).status).toBe('unconfigured');
    expect(readListedKeywords([keyword('a', undefined, false)], true).status).toBe('paused');
    expect(readListedKeywords([keyword('a', undefined)], true).status).toBe('pending');
  });
});

describe('common HTTP rules', () => {
  const plans = DEFAULT_PLANS;

  it('lets billing-exempt writes through a read-only plan', () => {
    expect(planRefusal({ method: 'POST' }, plans.starter, plans)).toEqual({ code: 'api.write_not_in_plan', extras: { upgrade_to: 'pro' } });
    expect(planRefusal({ method: 'POST', billingExempt: true }, plans.starter, plans)).toBeNull();
    expect(planRefusal({ method: 'GET' }, plans.free, plans)).toEqual({ code: 'api.not_in_plan', extras: { upgrade_to: 'starter' } });
  });

  it('checks the role, then the scope', () => {
    expect(accessRefusal({ adminOnly: true, scope: 'webhooks:read' }, 'member', [])).toEqual({ code: 'role.forbidden', extras: {} });
    expect(accessRefusal({ scope: 'webhooks:read' }, 'admin', [])).toEqual({ code: 'token.missing_scope', extras: { required_scopes: ['webhooks:read'] } });
    expect(accessRefusal({ scope: null }, 'member', [])).toBeNull();
  });

  it('compares ETags weakly, `*` anywhere in the list matching', () => {
    expect(ifNoneMatchMatches('"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b", W/"a"', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b", *', 'W/"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"b"', 'W/"a"')).toBe(false);
    expect(ifNoneMatchMatches(null, 'W/"a"')).toBe(false);
  });

  it('binds a cursor to the path and filters, not to cursor and limit', () => {
    expect(cursorBinding({ project: 'p' }, { b: '1', a: '2', limit: 5, cursor: 'x' })).toBe(cursorBinding({ project: 'p' }, { a: '2', b: '1' }));
    expect(cursorBinding({ project: 'p' }, {})).not.toBe(cursorBinding({ project: 'q' }, {}));
  });

  it('matches a method and a path to its operation and path parameters', () => {
    expect(matchOperation('GET', '/v1/projects/abc')).toEqual({ id: 'getProject', params: { project: 'abc' } });
    expect(matchOperation('GET', '/v1/projects/abc/')).toEqual({ id: 'getProject', params: { project: 'abc' } });
    expect(matchOperation('GET', '/v1/crawls/c1/issues/summary')).toEqual({ id: 'getCrawlIssueSummary', params: { crawl: 'c1' } });
    expect(matchOperation('POST', '/v1/projects')).toEqual({ id: 'createProject', params: {} });
    expect(matchOperation('PUT', '/v1/projects')).toBeNull();
    expect(matchOperation('GET', '/v1/projects/a/b/c')).toBeNull();
    expect(matchOperation('GET', '/v1/projects//')).toBeNull();
  });

  it('names the methods a path allows', () => {
    expect(allowedMethods('/v1/projects/')).toEqual(['GET', 'POST']);
    expect(allowedMethods('/v1/nowhere')).toEqual([]);
  });
});

describe('plans, projects, exports', () => {
  it('deep-merges plan overrides; a new plan starts from free and ranks last', () => {
    const plans = resolvePlans({ pro: { rateLimits: { minute: 5 } }, tiny: { api: 'read', limits: { 'projects.max': 2 } } });
    expect(plans.pro.rateLimits).toEqual({ minute: 5, day: 20_000 });
    expect(plans.pro.limits).toEqual(DEFAULT_PLANS.pro.limits);
    expect(plans.tiny).toMatchObject({ key: 'tiny', label: 'tiny', rank: 4, api: 'read', scheduleFrequencies: ['manual'] });
    expect(plans.tiny.limits['projects.max']).toBe(2);
    expect(plans.tiny.limits['crawls.monthly']).toBe(DEFAULT_PLANS.free.limits['crawls.monthly']);
    expect(DEFAULT_PLANS.pro.rateLimits.minute).toBe(120);
  });

  it('never shows a negative remaining quota', () => {
    expect(quotaOf(7, 5)).toEqual({ used: 7, limit: 5, remaining: 0 });
    expect(quotaOf(7, null)).toEqual({ used: 7, limit: null, remaining: null });
  });

  it('makes slugs, the default campaign budget and export names', () => {
    expect(slugify('Mon Été Café')).toBe('mon-ete-cafe');
    expect(slugify('***')).toBe('project');
    expect(firstFreeSlug('a', new Set(['a', 'a-2']))).toBe('a-3');
    expect(defaultCampaignBounds(DEFAULT_PLANS.free)).toEqual({ max_depth: 5, max_urls: 100 });
    expect(defaultCampaignBounds(DEFAULT_PLANS.agency)).toEqual({ max_depth: 5, max_urls: 500 });
    expect(exportFilename(null, '2026-01-15T10:00:07.000Z', 'xlsx')).toBe('siteaudit-crawl-2026-01-15.xlsx');
  });

  it('scores health and normalises URLs as the crawler does', () => {
    expect(healthScore({ pages: 100, checks: [{ severity: 'error', pages: 100 }] })).toBe(70);
    expect(normaliseUrl('HTTP://Example.com:80/a?b=1&a=2&a=1#x')).toBe('http://example.com/a?a=2&a=1&b=1');
    expect(normaliseUrl('/relative')).toBeNull();
  });
});

describe('browser safety', () => {
  it('imports no Node built-in in the schema sources', () => {
    const dir = join(import.meta.dirname, '../src');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const offenders = files.filter((f) => /from ['"]node:|require\(['"]node:/.test(readFileSync(join(dir, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
