/** The error catalogue against the spec's Errors chapter, and the problem-details body. */
import { describe, expect, it } from 'vitest';
import { ERRORS, ERROR_CODES, ERROR_TYPE_BASE, LANGUAGES, Problem, errorStatus, errorTitle, type ErrorCode } from '../src/index.js';

/** Every code the spec names with an HTTP status (spec: Errors table). */
const SPEC_STATUSES: Record<string, number> = {
  'pagination.invalid_cursor': 400,
  unauthenticated: 401,
  'token.missing_scope': 403,
  'api.not_in_plan': 403,
  'api.write_not_in_plan': 403,
  'project.locked': 403,
  'export.not_ready': 409,
  'export.expired': 410,
  validation_failed: 422,
  rate_limited: 429,
};

/** Codes the spec names without a status (docs/decisions/errors.md gives theirs). */
const SPEC_CODES_WITHOUT_STATUS = [
  'keywords.not_tracked',
  'keywords.already_checked_today',
  'keywords.project_limit',
  'webhook.url_refused',
  'plan_limit.exports.excel',
  'plan_limit.positions.tracked_keywords',
  'plan_limit.positions.live_checks_per_day',
];

describe('error catalogue', () => {
  it.each(Object.entries(SPEC_STATUSES))('%s answers %i as the spec says', (code, status) => {
    expect(ERRORS).toHaveProperty([code]);
    expect(errorStatus(code as ErrorCode)).toBe(status);
  });

  it.each(SPEC_CODES_WITHOUT_STATUS)('%s exists', (code) => {
    expect(ERRORS).toHaveProperty([code]);
  });

  it('gives the statuses decided for the codes the spec leaves open', () => {
    expect(errorStatus('keywords.project_limit')).toBe(403);
    expect(errorStatus('keywords.not_tracked')).toBe(409);
    expect(errorStatus('keywords.already_checked_today')).toBe(409);
    expect(errorStatus('webhook.url_refused')).toBe(422);
    expect(errorStatus('crawl.already_running')).toBe(409);
    expect(errorStatus('crawl.not_settled')).toBe(409);
  });

  it('has a code for the unnamed 404 and the general 409', () => {
    expect(errorStatus('not_found')).toBe(404);
    expect(errorStatus('conflict')).toBe(409);
  });

  it('answers every plan limit with 403, like the other plan refusals', () => {
    const planLimits = ERROR_CODES.filter((c) => c.startsWith('plan_limit.'));
    expect(planLimits.length).toBeGreaterThan(0);
    for (const code of planLimits) expect(errorStatus(code), code).toBe(403);
  });

  it('uses only error statuses, and codes of one stable shape', () => {
    for (const code of ERROR_CODES) {
      expect(errorStatus(code), code).toBeGreaterThanOrEqual(400);
      expect(errorStatus(code), code).toBeLessThan(600);
      expect(code).toMatch(/^[a-z_]+(\.[a-z_]+)*$/);
    }
  });

  it.each(ERROR_CODES)('%s has non-empty, distinct fr and en titles', (code) => {
    const fr = errorTitle(code, 'fr');
    const en = errorTitle(code, 'en');
    expect(fr.trim()).not.toBe('');
    expect(en.trim()).not.toBe('');
    expect(fr).not.toBe(en);
  });

  it('never gives two codes the same title in one language', () => {
    for (const language of LANGUAGES) {
      const titles = ERROR_CODES.map((c) => errorTitle(c, language));
      expect(new Set(titles).size, language).toBe(titles.length);
    }
  });
});

describe('problem details body', () => {
  const problem = (code: ErrorCode, extras: Record<string, unknown> = {}) => ({
    type: `${ERROR_TYPE_BASE}${code}`,
    title: errorTitle(code, 'en'),
    status: errorStatus(code),
    code,
    ...extras,
  });

  it('parses each body the spec describes', () => {
    const bodies = [
      problem('validation_failed', {
        errors: {
          'schedule.time': [{ code: 'invalid_format', message: 'Expected HH:MM (UTC)' }],
          'keywords.3': [{ code: 'too_small', message: 'Too short' }],
        },
      }),
      problem('token.missing_scope', { required_scopes: ['crawls:write'] }),
      problem('api.write_not_in_plan', { upgrade_to: 'pro' }),
      problem('rate_limited', { window: 'minute', retry_after: 12, upgrade_to: null }),
      problem('not_found', { detail: 'No such project.' }),
    ];
    for (const body of bodies) expect(Problem.safeParse(body).success, body.code).toBe(true);
  });

  it('refuses a code outside the catalogue, and field errors that are not {code, message} lists', () => {
    expect(Problem.safeParse({ ...problem('conflict'), code: 'crawl.exploded' }).success).toBe(false);
    expect(Problem.safeParse(problem('validation_failed', { errors: { name: 'Required' } })).success).toBe(false);
    expect(Problem.safeParse(problem('rate_limited', { window: 'hour' })).success).toBe(false);
  });
});
