/** Request bodies and queries: the spec's "unknown fields are refused, never ignored", and bounds. */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Campaign,
  CreateCampaignBody,
  CreateWebhookBody,
  KeywordsBody,
  ListIssuesQuery,
  ListPagesQuery,
  PageQuery,
  PeriodQuery,
  ScheduleInput,
  TrackKeywordsBody,
  UpdateCampaignBody,
  UpdateWebhookBody,
  WEBHOOK_EVENTS,
  contract,
  type ContractEntry,
  type OperationId,
} from '../src/index.js';
import { webhookUrlSchemeError } from '../src/rules/index.js';

const campaignBody = { name: 'Audit', start_url: 'https://www.example.com/', max_depth: 5, max_urls: 500 };
const webhookBody = { url: 'https://hooks.example.com/in', events: ['crawl.completed'] };

/** The smallest valid body of each operation that takes one. */
const MINIMAL_BODIES: Partial<Record<OperationId, unknown>> = {
  createProject: { url: 'https://www.example.com' },
  updateProject: {},
  createCampaign: campaignBody,
  updateCampaign: {},
  launchCrawl: {},
  createExport: { format: 'pdf' },
  trackKeywords: { keywords: ['audit seo'] },
  untrackKeywords: { keywords: ['audit seo'] },
  pauseKeywords: { keywords: ['audit seo'] },
  resumeKeywords: { keywords: ['audit seo'] },
  checkKeyword: { keyword: 'audit seo' },
  createWebhook: webhookBody,
  updateWebhook: {},
  rotateWebhookSecret: {},
  testWebhook: {},
};

const withBody = (Object.values(contract) as ContractEntry[]).filter((e) => e.body !== null);
const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('every request body of the contract', () => {
  it('has a minimal body in this test (add one when an operation gains a body)', () => {
    expect(withBody.map((e) => e.id).sort()).toEqual(Object.keys(MINIMAL_BODIES).sort());
  });

  it.each(withBody.map((e) => [e.id, e] as const))('%s accepts its minimal body and refuses an unknown field', (id, entry) => {
    const body = MINIMAL_BODIES[id] as Record<string, unknown>;
    const schema = entry.body as z.ZodType;
    expect(accepts(schema, body)).toBe(true);
    const result = schema.safeParse({ ...body, unknown_field: 1 });
    expect(result.success).toBe(false);
    // The 422 `errors` map is keyed by field path, so the issue must name the field.
    expect(result.error?.issues).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', keys: ['unknown_field'] }));
  });

  it('lets the bodiless POSTs (launch, rotate-secret, test) be sent with no body at all', () => {
    for (const id of ['launchCrawl', 'rotateWebhookSecret', 'testWebhook'] as const) {
      expect(accepts(contract[id].body, undefined), id).toBe(true);
    }
  });

  it('refuses a JSON value that is not an object', () => {
    for (const entry of withBody) {
      expect(accepts(entry.body as z.ZodType, []), entry.id).toBe(false);
      expect(accepts(entry.body as z.ZodType, 'x'), entry.id).toBe(false);
    }
  });
});

describe('campaign bodies', () => {
  it('requires name, start_url, max_depth and max_urls at creation', () => {
    expect(accepts(CreateCampaignBody, campaignBody)).toBe(true);
    for (const field of Object.keys(campaignBody)) {
      const { [field as keyof typeof campaignBody]: _, ...rest } = campaignBody;
      expect(accepts(CreateCampaignBody, rest), `without ${field}`).toBe(false);
    }
  });

  it('accepts an empty partial update', () => {
    expect(accepts(UpdateCampaignBody, {})).toBe(true);
  });

  const writeOnly = {
    check_accessibility_rendered: true,
    include_patterns: '^/blog/',
    exclude_patterns: null,
    issue_exclusion_patterns: 'utm_',
    timeout: 30,
    retries: null,
    duplication_threshold: 85.5,
    regression_threshold: 'warning',
    http_user: 'staging',
    http_password: 's3cret',
    notify: false,
  };

  it('accepts the write-only fields on create and update', () => {
    expect(accepts(CreateCampaignBody, { ...campaignBody, ...writeOnly })).toBe(true);
    expect(accepts(UpdateCampaignBody, writeOnly)).toBe(true);
    for (const [field, value] of Object.entries(writeOnly)) {
      expect(accepts(UpdateCampaignBody, { [field]: value }), field).toBe(true);
    }
  });

  it('does not echo the write-only fields in the Campaign resource', () => {
    const keys = Object.keys(Campaign.shape);
    for (const field of Object.keys(writeOnly)) expect(keys, field).not.toContain(field);
  });

  it('accepts every field of the Campaign resource that a client sets on a write', () => {
    const readBack = Object.keys(Campaign.shape).filter((k) => !['id', 'project_id', 'created_at'].includes(k));
    const writable = Object.keys(UpdateCampaignBody.shape);
    for (const field of readBack) expect(writable, field).toContain(field);
  });

  it('refuses a regression threshold outside off, warning and error', () => {
    expect(accepts(UpdateCampaignBody, { regression_threshold: 'critical' })).toBe(false);
  });

  it('checks the schedule: HH:MM time, weekday for weekly, 1..28 for monthly', () => {
    expect(accepts(ScheduleInput, { frequency: 'manual' })).toBe(true);
    expect(accepts(ScheduleInput, { frequency: 'daily', time: '23:59' })).toBe(true);
    expect(accepts(ScheduleInput, { frequency: 'weekly', day: 'sunday', time: '06:00', paused: true })).toBe(true);
    expect(accepts(ScheduleInput, { frequency: 'monthly', day: '28', time: '00:00' })).toBe(true);
    expect(accepts(ScheduleInput, { frequency: 'daily', time: '24:00' })).toBe(false);
    expect(accepts(ScheduleInput, { frequency: 'daily', time: '6:00' })).toBe(false);
    expect(accepts(ScheduleInput, { frequency: 'weekly', day: 'funday' })).toBe(false);
    expect(accepts(ScheduleInput, { frequency: 'monthly', day: '29' })).toBe(false);
    expect(accepts(ScheduleInput, { frequency: 'hourly' })).toBe(false);
    expect(accepts(ScheduleInput, { frequency: 'daily', next_run_at: '2025-01-01T00:00:00Z' })).toBe(false);
  });
});

describe('list queries', () => {
  it('bounds limit to 1..100 with a default of 25, from query-string text', () => {
    expect(PageQuery.parse({})).toEqual({ limit: 25 });
    expect(PageQuery.parse({ limit: '1' }).limit).toBe(1);
    expect(PageQuery.parse({ limit: '100' }).limit).toBe(100);
    for (const limit of ['0', '101', '-1', '2.5', 'ten']) {
      expect(accepts(PageQuery, { limit }), limit).toBe(false);
    }
  });

  it('refuses unknown query parameters, on extended list queries too', () => {
    expect(accepts(PageQuery, { page: '2' })).toBe(false);
    expect(accepts(ListIssuesQuery, { severity: 'error', sort: 'url' })).toBe(false);
    expect(accepts(ListPagesQuery, { status: '4xx', internal: 'true', extra: 'x' })).toBe(false);
  });

  it('takes the issue and page filters the spec lists', () => {
    expect(accepts(ListIssuesQuery, { severity: 'warning', category: 'content', name: 'missing_title' })).toBe(true);
    expect(accepts(ListIssuesQuery, { severity: 'fatal' })).toBe(false);
    expect(accepts(ListPagesQuery, { status: 'unreachable', internal: 'false' })).toBe(true);
    expect(accepts(ListPagesQuery, { internal: 'yes' })).toBe(false);
  });

  it('takes only the period presets', () => {
    expect(accepts(PeriodQuery, {})).toBe(true);
    expect(accepts(PeriodQuery, { period: '28d' })).toBe(true);
    expect(accepts(PeriodQuery, { period: '14d' })).toBe(false);
  });
});

describe('keyword bodies', () => {
  const keywords = (n: number) => Array.from({ length: n }, (_, i) => `keyword ${i}`);

  it('tracks at most 100 keywords per request', () => {
    expect(accepts(TrackKeywordsBody, { keywords: keywords(100) })).toBe(true);
    expect(accepts(TrackKeywordsBody, { keywords: keywords(101) })).toBe(false);
  });

  it('refuses an empty list and blank keywords', () => {
    expect(accepts(TrackKeywordsBody, { keywords: [] })).toBe(false);
    expect(accepts(KeywordsBody, { keywords: ['  '] })).toBe(false);
  });
});

describe('webhook bodies', () => {
  it('accepts every allowed event and refuses any other, webhook.test included', () => {
    expect(accepts(CreateWebhookBody, { ...webhookBody, events: [...WEBHOOK_EVENTS] })).toBe(true);
    for (const event of ['crawl.started', 'webhook.test', '*', 'CRAWL.COMPLETED']) {
      expect(accepts(CreateWebhookBody, { ...webhookBody, events: [event] }), event).toBe(false);
      expect(accepts(UpdateWebhookBody, { events: [event] }), event).toBe(false);
    }
    expect(accepts(CreateWebhookBody, { ...webhookBody, events: [] })).toBe(false);
  });

  it('refuses a URL that is not absolute http(s); http is left to the server setting', () => {
    for (const url of ['ftp://hooks.example.com', 'hooks.example.com/in', '/in', '']) {
      expect(accepts(CreateWebhookBody, { ...webhookBody, url }), url).toBe(false);
      expect(accepts(UpdateWebhookBody, { url }), url).toBe(false);
    }
    expect(accepts(CreateWebhookBody, { ...webhookBody, url: 'http://127.0.0.1:3000/hooks' })).toBe(true);
  });

  it('takes http only with private addresses allowed (webhookUrlSchemeError)', () => {
    expect(webhookUrlSchemeError('https://hooks.example.com/in', false, 'en')).toBeNull();
    expect(webhookUrlSchemeError('http://hooks.example.com/in', false, 'en')).toEqual({ url: [{ code: 'invalid_url', message: 'Must be an absolute https URL' }] });
    expect(webhookUrlSchemeError('http://127.0.0.1:3000/hooks', true, 'fr')).toBeNull();
    expect(webhookUrlSchemeError('ftp://127.0.0.1/', true, 'fr')).toEqual({ url: [{ code: 'invalid_url', message: 'Doit être une URL https absolue' }] });
  });

  it('accepts a null description and an active flag on update', () => {
    expect(accepts(CreateWebhookBody, { ...webhookBody, description: null })).toBe(true);
    expect(accepts(UpdateWebhookBody, { active: true, description: 'CI' })).toBe(true);
  });
});
