/**
 * Every resource of the spec's "Resources and their fields" chapter, built from its field tables,
 * parses with the contract's schema; values the spec rules out do not.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Campaign,
  Crawl,
  CrawledPage,
  CrawledPageWithIssues,
  Export,
  IssueOccurrence,
  IssueSummary,
  Me,
  OperationList,
  PageSpeedResult,
  Positions,
  Project,
  Scorecard,
  SearchConsole,
  Usage,
  WEBHOOK_EVENT_PAYLOADS,
  Webhook,
  WebhookDelivery,
  WebhookWithSecret,
  list,
  single,
} from '../src/index.js';

const ID = '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d';
const ID2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const AT = '2025-03-14T09:26:53Z';

const project = {
  id: ID,
  name: 'example.com',
  slug: 'example-com',
  url: 'https://www.example.com/',
  domain: 'example.com',
  locked: false,
  created_at: AT,
  latest_completed_crawl: { id: ID2, finished_at: AT },
};

const campaign = {
  id: ID,
  project_id: ID2,
  name: 'Weekly audit',
  start_url: 'https://www.example.com/',
  max_depth: 5,
  max_urls: 10_000,
  javascript_rendering: false,
  pagespeed: true,
  check_external_links: true,
  check_ai_reachability: true,
  check_accessibility: false,
  protected_site: false,
  schedule: { frequency: 'weekly', day: 'monday', time: '06:30', paused: false, next_run_at: AT },
  created_at: AT,
};

const crawl = {
  id: ID,
  project_id: ID2,
  campaign_id: ID,
  status: 'completed',
  stage: 'scoring',
  active: false,
  stage_plan: {
    current_step: 4,
    step_count: 6,
    settled: false,
    steps: [
      { stage: 'fetching', state: 'done', skip_reason: null },
      { stage: 'analysing', state: 'done', skip_reason: null },
      { stage: 'pagespeed', state: 'skipped', skip_reason: 'pagespeed_disabled' },
      { stage: 'scoring', state: 'running', skip_reason: null },
      { stage: 'comparing', state: 'pending', skip_reason: null },
      { stage: 'done', state: 'pending', skip_reason: null },
    ],
  },
  pages: { crawled: 812, discovered: 1204, budget: 10_000, per_second: 3.4 },
  issue_counts: { error: 12, warning: 140, info: 33 },
  truncated: false,
  blocked: false,
  comparable: true,
  blocked_reason: null,
  error: null,
  trigger: 'manual',
  started_at: AT,
  finished_at: AT,
  created_at: AT,
};

const occurrence = {
  name: 'missing_title',
  severity: 'error',
  category: 'content',
  url: 'https://www.example.com/a',
  details: 'The page has no <title>.',
};

const summary = {
  crawl_id: ID,
  totals: { error: 12, warning: 140, info: 33 },
  protection_occurrences: 2,
  groups: [
    { name: 'missing_title', label: 'missing title', severity: 'error', category: 'content', occurrences: 12, pages: 12, templates: [] },
    {
      name: 'description_missing',
      label: 'description missing',
      severity: 'warning',
      category: 'titles',
      occurrences: 140,
      pages: 140,
      templates: [{ scope: 'site', section: null, pages: 140, share: 0.93, details: 'no meta description', examples: ['https://www.example.com/a', 'https://www.example.com/b'] }],
    },
  ],
};

const page = {
  url: 'https://www.example.com/a',
  status_code: 200,
  error_type: null,
  content_type: 'text/html; charset=utf-8',
  is_internal: true,
  depth: 1,
  title: 'A',
  meta_description: 'About A',
  h1: 'A',
  word_count: 420,
  canonical_url: 'https://www.example.com/a',
  response_time_ms: 182.5,
  size_bytes: 48_213,
  internal_links: 37,
  external_links: 4,
  images: 6,
  images_without_alt: 1,
};

const pagespeed = {
  crawl_id: ID,
  status: 'measured',
  provider: 'lighthouse',
  skip_reason: null,
  mobile: { score: 61.5, pages_measured: 4, pages_failed: 1 },
  desktop: { score: 88, pages_measured: 5, pages_failed: 0 },
  combined: 74.75,
  failed: false,
  sample: [
    { url: 'https://www.example.com/', role: 'home', mobile: 58, desktop: 90, error: null },
    { url: 'https://www.example.com/shop', role: 'category', mobile: null, desktop: 86, error: 'timeout' },
  ],
  measured_at: AT,
};

const pillar = (key: string, score: number | null, status: string) => ({
  key,
  score,
  status,
  available: status !== 'unavailable',
  version: 1,
  as_of: score === null ? null : AT,
  blocked_reason: status === 'unavailable' ? 'search_console_unconfigured' : null,
  axes: score === null ? [] : [{ key: 'indexability', score, weight: 1, factor: score / 100, checks: [{ name: 'noindex', severity: 'error', pages: 3, judged_pages: 100, site: false, share: 0.03, weight: 0.35, cost: 0.35 * Math.sqrt(0.03) }] }],
  computation: { method: 'product', scored_pages: score === null ? null : 100, html_pages: score === null ? null : 100, exact: score },
});

const scorecard = {
  project_id: ID,
  pillars: [
    pillar('technique', 82, 'measured'),
    pillar('contenu', 0, 'measured'),
    pillar('accessibilite', null, 'not_measured'),
    pillar('acquisition', null, 'unavailable'),
    pillar('logs', null, 'unavailable'),
  ],
};

const keyword = {
  keyword: 'audit seo',
  active: true,
  measured: true,
  position: 7,
  url: 'https://www.example.com/audit',
  delta_1d: 1,
  delta_7d: -2,
  delta_30d: 5,
  search_volume: 1900,
  keyword_difficulty: 42,
  search_intent: 'commercial',
  serp_features: ['featured_snippet', 'people_also_ask'],
};

const positions = {
  project_id: ID,
  status: 'active',
  tracker: { location: 'Paris', country: 'FR', language: 'fr', device: 'mobile', active: true, last_tracked_on: '2025-03-13' },
  period: { preset: '30d', from: '2025-02-12', to: '2025-03-13' },
  summary: {
    average_position: 12.4,
    ranking_keywords: 2,
    measured_keywords: 3,
    tracked_keywords: 4,
    top3: 0,
    top10: 1,
    visibility_percent: 18.2,
    improved: 1,
    declined: 1,
    entered: 0,
    exited: 0,
  },
  keywords: [
    keyword,
    // Checked and outside the top 100.
    { ...keyword, keyword: 'crawler', position: null, url: null, delta_1d: null, delta_7d: null, delta_30d: null },
    // Never checked.
    { ...keyword, keyword: 'seo', measured: false, position: null, url: null, delta_1d: null, delta_7d: null, delta_30d: null },
  ],
  quota: { used: 4, limit: 100, remaining: 96 },
};

const metrics = { clicks: 120, impressions: 4000, ctr: 0.03, position: 14.2 };
const searchConsole = {
  project_id: ID,
  status: 'ready',
  property: 'sc-domain:example.com',
  synced_at: AT,
  sync: { available: true, reason: null },
  performance: {
    period: { preset: '28d', from: '2025-02-14', to: '2025-03-13' },
    totals: metrics,
    daily: [{ date: '2025-03-13', ...metrics }],
  },
  indexation: { inspected: 50, indexed: 44, not_indexed: 6, as_of: AT },
};

const exportReady = {
  id: ID,
  crawl_id: ID2,
  format: 'pdf',
  status: 'ready',
  size_bytes: 183_204,
  download_url: 'https://api.siteaudit.dev/v1/exports/3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d/download',
  error: null,
  created_at: AT,
  finished_at: AT,
  expires_at: '2025-03-21T09:26:53Z',
};

const webhook = {
  id: ID,
  url: 'https://hooks.example.com/siteaudit',
  description: null,
  events: ['crawl.completed', 'export.ready'],
  active: false,
  disabled_reason: 'consecutive_failures',
  disabled_at: AT,
  consecutive_failures: 15,
  last_delivery_at: AT,
  secret_rotation_ends_at: null,
  created_at: AT,
};

const delivery = {
  id: ID,
  event_id: ID2,
  event_type: 'crawl.completed',
  status: 'failed',
  attempts: 3,
  response_status: null,
  error_reason: 'refused_address',
  duration_ms: 12,
  next_attempt_at: null,
  delivered_at: null,
  created_at: AT,
};

const me = {
  token: { id: ID, name: 'ci', scopes: ['projects:read', 'crawls:write'], expires_at: AT, last_used_at: null, created_at: AT },
  user: { name: 'Owner', email: 'owner@acme.test' },
  team: { slug: 'acme', name: 'Acme' },
  plan: { key: 'pro', label: 'Pro' },
  api_access: ['read', 'write'],
};

const usage = {
  rate_limits: [
    { window: 'minute', window_seconds: 60, unit: 'cost', limit: 120, used: 7, remaining: 113, resets_in_seconds: 41 },
    { window: 'day', window_seconds: 86_400, unit: 'cost', limit: null, used: 930, remaining: null, resets_in_seconds: 5000 },
  ],
  quotas: [
    { entitlement: 'crawls.monthly', used: 3, limit: 20, remaining: 17 },
    { entitlement: 'exports.excel', used: 0, limit: 0, remaining: 0 },
  ],
};

const operations = {
  data: [
    { kind: 'crawl', project_id: ID, started_at: AT, crawl: { id: ID2, stage: 'fetching', progress: 40, pages_crawled: 400, page_budget: 1000 } },
    { kind: 'keyword_research', project_id: ID, started_at: AT, crawl: null },
  ],
  meta: { total: 2, shown: 2 },
};

/** Parses `value` and reports zod's issues in the failure message. */
function expectParses(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success, result.success ? '' : JSON.stringify(result.error.issues, null, 2)).toBe(true);
}
function expectFails(schema: z.ZodType, value: unknown) {
  expect(schema.safeParse(value).success).toBe(false);
}

/** A resource a page loads (the by-URL read's extension, docs/decisions/resources.md). */
const resource = {
  url: 'https://example.com/js/old.js',
  type: 'script',
  status_code: 301,
  final_status_code: 404,
  redirect_url: 'https://example.com/js/new.js',
  error_type: null,
  content_type: 'text/html',
  size_bytes: null,
};

describe('every resource of the spec parses', () => {
  it.each([
    ['Project', Project, project],
    ['Campaign', Campaign, campaign],
    ['Crawl (with stage_plan)', Crawl, crawl],
    ['IssueOccurrence', IssueOccurrence, occurrence],
    ['IssueSummary', IssueSummary, summary],
    ['CrawledPage', CrawledPage, page],
    ['CrawledPageWithIssues', CrawledPageWithIssues, { ...page, issues: [occurrence, { ...occurrence, severity: 'info' }], resources: [resource] }],
    ['PageSpeedResult', PageSpeedResult, pagespeed],
    ['Scorecard', Scorecard, scorecard],
    ['Positions', Positions, positions],
    ['SearchConsole', SearchConsole, searchConsole],
    ['Export', Export, exportReady],
    ['Webhook', Webhook, webhook],
    ['WebhookWithSecret', WebhookWithSecret, { ...webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
    ['WebhookDelivery', WebhookDelivery, delivery],
    ['Me', Me, me],
    ['Usage', Usage, usage],
    ['Operation list', OperationList, operations],
  ] as const)('%s', (_, schema, value) => {
    expectParses(schema, value);
  });

  it('wraps a resource in { data } and a list in { data, meta }', () => {
    expectParses(single(Project), { data: project });
    expectParses(list(Project), { data: [project], meta: { limit: 25, has_more: true, next_cursor: 'b3Blbg' } });
    expectParses(list(Project), { data: [], meta: { limit: 25, has_more: false, next_cursor: null } });
    expectFails(list(Project), { data: [project] });
  });

  it('accepts the nulls the spec implies before a crawl or a check has happened', () => {
    expectParses(Project, { ...project, latest_completed_crawl: null });
    expectParses(Crawl, { ...crawl, status: 'queued', stage: 'queued', active: false, started_at: null, finished_at: null });
    expectParses(CrawledPage, { ...page, status_code: null, error_type: 'timeout', content_type: null, title: null, word_count: null, size_bytes: null, response_time_ms: null });
    expectParses(Positions, { ...positions, status: 'unconfigured', tracker: null, keywords: [], summary: { ...positions.summary, average_position: null } });
    expectParses(SearchConsole, { ...searchConsole, status: 'unconfigured', property: null, synced_at: null, indexation: null, performance: { ...searchConsole.performance, totals: null, daily: [] } });
    expectParses(SearchConsole, { ...searchConsole, status: 'pending', synced_at: null, indexation: null, sync: { available: false, reason: 'no_provider' } });
    expectParses(Export, { ...exportReady, status: 'queued', size_bytes: null, download_url: null, finished_at: null, expires_at: null });
    expectParses(Campaign, { ...campaign, schedule: { frequency: 'manual', day: null, time: null, paused: false, next_run_at: null } });
  });

  it('carries every webhook event payload as { id, type, created_at, data }', () => {
    const payloads: Record<keyof typeof WEBHOOK_EVENT_PAYLOADS, unknown> = {
      'crawl.completed': { crawl },
      'crawl.failed': { crawl: { ...crawl, status: 'failed', error: 'start_url_unreachable' } },
      'crawl.stopped': { crawl: { ...crawl, status: 'stopped' } },
      'export.ready': { export: exportReady },
      'recommendations.ready': { project_id: ID, campaign_id: ID, crawl_id: ID, recommendations: 2, top: [{ name: 'http_4xx', severity: 'error', pages: 3, impact: 3 }] },
      'signal.detected': {
        kind: 'regression',
        severity: 'warning',
        reasons: ['new_issues'],
        project_id: ID,
        campaign_id: ID,
        crawl_id: ID,
        previous_crawl_id: ID,
        counts: { new: { error: 0, warning: 1, info: 0 }, fixed: { error: 0, warning: 0, info: 0 }, gone_with_page: { error: 0, warning: 0, info: 0 }, persisting: { error: 2, warning: 0, info: 1 }, pages_added: 0, pages_removed: 0, status_changed: 0, redirect_changed: 0 },
        health_score: { score: 88, previous_score: 90, delta: -2 },
        top_new_checks: [{ name: 'description_missing', severity: 'warning', category: 'titles', new: 1 }],
      },
      'webhook.test': { webhook_id: ID },
    };
    for (const [type, schema] of Object.entries(WEBHOOK_EVENT_PAYLOADS)) {
      const data = payloads[type as keyof typeof payloads];
      expectParses(schema, { id: ID2, type, created_at: AT, data });
      expectFails(schema, { id: ID2, type: 'crawl.unknown', created_at: AT, data });
    }
  });
});

describe('values the spec rules out are refused', () => {
  it('refuses identifiers that are not UUIDs', () => {
    expectFails(Project, { ...project, id: 'project-1' });
    expectFails(Crawl, { ...crawl, campaign_id: '12345' });
    expectFails(IssueSummary, { ...summary, crawl_id: '' });
  });

  it('refuses timestamps and dates outside ISO 8601', () => {
    expectFails(Project, { ...project, created_at: '14/03/2025' });
    expectFails(Positions, { ...positions, period: { ...positions.period, from: '2025-02-12T00:00:00Z' } });
  });

  it('refuses a severity outside error, warning and info', () => {
    expectFails(IssueOccurrence, { ...occurrence, severity: 'critical' });
    expectFails(IssueSummary, { ...summary, groups: [{ ...summary.groups[0], severity: 'notice' }] });
    expectFails(CrawledPageWithIssues, { ...page, issues: [{ ...occurrence, severity: 'ERROR' }] });
  });

  it('refuses a page resource of an unknown type', () => {
    expectFails(CrawledPageWithIssues, { ...page, issues: [], resources: [{ ...resource, type: 'font' }] });
  });

  it('refuses an export format other than pdf and xlsx', () => {
    expectFails(Export, { ...exportReady, format: 'csv' });
  });

  it('refuses webhook events outside the allowed list, api_access outside read and write', () => {
    expectFails(Webhook, { ...webhook, events: ['crawl.started'] });
    expectFails(Me, { ...me, api_access: ['admin'] });
    expectFails(Me, { ...me, token: { ...me.token, scopes: ['projects:admin'] } });
  });

  it('refuses an unknown pillar key', () => {
    expectFails(Scorecard, { ...scorecard, pillars: [pillar('global', 70, 'measured')] });
  });
});

describe('null is never 0: both are representable and mean different things', () => {
  it('scorecard: a measured 0 and an unmeasurable null are both valid pillar scores', () => {
    const [technique] = scorecard.pillars;
    expectParses(Scorecard, { ...scorecard, pillars: [{ ...technique, score: 0 }] });
    expectParses(Scorecard, { ...scorecard, pillars: [{ ...technique, score: null, status: 'not_measured' }] });
    expectFails(Scorecard, { ...scorecard, pillars: [{ ...technique, score: 101 }] });
  });

  it('pagespeed: a strategy measured on no page is null, not an average over zero pages', () => {
    expectParses(PageSpeedResult, { ...pagespeed, mobile: { score: 0, pages_measured: 2, pages_failed: 0 } });
    expectParses(PageSpeedResult, { ...pagespeed, mobile: null, combined: 88 });
    expectFails(PageSpeedResult, { ...pagespeed, mobile: { score: 0, pages_measured: 0, pages_failed: 5 } });
    expectFails(PageSpeedResult, { ...pagespeed, mobile: 0 });
  });

  it('pagespeed: every measurement refused gives null strategies, null combined and failed', () => {
    expectParses(PageSpeedResult, {
      ...pagespeed,
      status: 'failed',
      mobile: null,
      desktop: null,
      combined: null,
      failed: true,
      sample: pagespeed.sample.map((s) => ({ ...s, mobile: null, desktop: null, error: 'lighthouse_error' })),
    });
  });

  it('positions: measured with a null position is outside the top 100; position 0 or 101 is invalid', () => {
    expectFails(Positions, { ...positions, keywords: [{ ...keyword, position: 0 }] });
    expectFails(Positions, { ...positions, keywords: [{ ...keyword, position: 101 }] });
  });

  it('usage: a null limit (unlimited) and a 0 limit (not in the plan) are both valid', () => {
    expectParses(Usage, { ...usage, quotas: [{ entitlement: 'x', used: 0, limit: null, remaining: null }] });
    expectParses(Usage, { ...usage, quotas: [{ entitlement: 'x', used: 0, limit: 0, remaining: 0 }] });
  });
});

describe('secrets and credentials', () => {
  it('keeps the webhook secret out of the Webhook resource', () => {
    expect(Object.keys(Webhook.shape)).not.toContain('secret');
    expect(Object.keys(WebhookWithSecret.shape)).toContain('secret');
  });

  it('never returns HTTP credentials in the Campaign resource', () => {
    expect(Object.keys(Campaign.shape)).not.toContain('http_user');
    expect(Object.keys(Campaign.shape)).not.toContain('http_password');
  });
});
