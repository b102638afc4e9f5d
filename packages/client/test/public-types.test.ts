/**
 * What an integrator types against: the resource types and the error-code union re-exported
 * from the contract, boolean filters as booleans, and a `baseUrl` with `/v1` refused with a
 * message that says what to do. The type assertions are checked by `tsc` (tests are type-checked).
 */
import type { ErrorCode } from '@siteaudit/schema';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createClient,
  SiteAuditError,
  type Crawl,
  type Export,
  type Input,
  type Issue,
  type Project,
  type Result,
  type SiteAuditErrorCode,
  type Webhook,
  type WebhookDelivery,
  type WebhookWithSecret,
} from '../src/index.js';
import { fakeFetch, ids, json, page, problem } from './fake-fetch.js';

describe('resource types', () => {
  it('are the types the methods resolve to', () => {
    expectTypeOf<Result<'getProject'>>().toEqualTypeOf<Project>();
    expectTypeOf<Result<'getCrawl'>>().toEqualTypeOf<Crawl>();
    expectTypeOf<Result<'getExport'>>().toEqualTypeOf<Export>();
    expectTypeOf<Result<'getWebhook'>>().toEqualTypeOf<Webhook>();
    expectTypeOf<Result<'testWebhook'>>().toEqualTypeOf<WebhookDelivery>();
    expectTypeOf<Result<'createWebhook'>>().toMatchTypeOf<WebhookWithSecret>();
    expectTypeOf<Issue>().toHaveProperty('severity');
    expectTypeOf<Crawl['blocked']>().toEqualTypeOf<boolean>();
  });
});

describe('error codes', () => {
  it('type SiteAuditError.code with the catalogue and the client codes', () => {
    expectTypeOf<SiteAuditError['code']>().toEqualTypeOf<SiteAuditErrorCode>();
    expectTypeOf<ErrorCode>().toMatchTypeOf<SiteAuditErrorCode>();
    expectTypeOf<'validation_failed' | 'plan_limit.api.webhooks.max' | 'timeout' | 'connection_error' | 'http_502'>().toMatchTypeOf<SiteAuditErrorCode>();
    // @ts-expect-error a misspelt code does not compile
    const wrong: SiteAuditErrorCode = 'validation_error';
    expect(wrong).toBeDefined();
  });

  it('carry the code the server sent', async () => {
    const { fetch } = fakeFetch(problem(422, 'validation_failed', { errors: {} }));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch, retries: 0 });
    const error = await client.projects.get({ project: ids.project }).catch((e: SiteAuditError) => e);
    expect(error).toBeInstanceOf(SiteAuditError);
    const code: SiteAuditErrorCode = (error as SiteAuditError).code;
    expect(code).toBe('validation_failed');
  });
});

describe('boolean filters', () => {
  it('are typed boolean and sent as "true" / "false"', async () => {
    expectTypeOf<Input<'listCrawlPages'>['internal']>().toEqualTypeOf<boolean | undefined>();
    const fake = fakeFetch(json(200, page([], null)));
    const client = createClient({ baseUrl: 'https://api.test', token: 't', fetch: fake.fetch });
    await client.crawls.pages.list({ crawl: ids.crawl, internal: true });
    await client.crawls.pages.list({ crawl: ids.crawl, internal: false });
    expect(fake.requests.map((r) => r.url.searchParams.get('internal'))).toEqual(['true', 'false']);
  });
});

describe('baseUrl', () => {
  it('refuses one ending in /v1 and says to drop it', () => {
    for (const baseUrl of ['https://api.siteaudit.dev/v1', 'https://api.siteaudit.dev/v1/', 'http://localhost:3000/V1']) {
      expect(() => createClient({ baseUrl, token: 't' }), baseUrl).toThrow(/must not end with \/v1.*drop it/);
    }
    expect(() => createClient({ baseUrl: 'https://api.siteaudit.dev/v1', token: 't' })).toThrow('"https://api.siteaudit.dev"');
  });

  it('takes the service address, with or without a trailing slash or a gateway prefix', async () => {
    const fake = fakeFetch(json(200, page([], null)));
    for (const baseUrl of ['https://api.test', 'https://api.test/', 'https://gw.test/siteaudit']) {
      await createClient({ baseUrl, token: 't', fetch: fake.fetch }).projects.list();
    }
    expect(fake.requests.map((r) => r.url.href)).toEqual(['https://api.test/v1/projects', 'https://api.test/v1/projects', 'https://gw.test/siteaudit/v1/projects']);
  });
});
