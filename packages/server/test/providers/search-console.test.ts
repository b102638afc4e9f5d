import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleSearchConsole, parseServiceAccount, ProviderError, serviceAccountAssertion } from '../../src/providers/index.js';
import { googleStandIn, serviceAccountKey } from '../../../../tests/support/provider-stand-ins.js';

const google = googleStandIn();
const server = setupServer(...google.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const key = serviceAccountKey();
const credentials = parseServiceAccount(key);
google.grant(key, ['sc-domain:shop.test', 'https://www.shop.test/']);
google.analytics.set(
  'sc-domain:shop.test',
  new Map([
    ['2025-03-01', { clicks: 10, impressions: 200, position: 8.5 }],
    ['2025-03-02', { clicks: 30, impressions: 300, position: 6.25 }],
    ['2025-02-01', { clicks: 1, impressions: 1, position: 1 }],
  ]),
);
google.index.set('https://www.shop.test/', { verdict: 'PASS', coverageState: 'Submitted and indexed' });

const now = new Date('2025-03-10T09:00:00Z');

describe('service-account token', () => {
  it('signs an RS256 JWT with the account, scope and token audience, valid one hour', () => {
    const jwt = serviceAccountAssertion(credentials, 'https://www.googleapis.com/auth/webmasters.readonly', 'https://oauth2.googleapis.com/token', now);
    const [header, claims] = jwt.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id });
    expect(claims).toEqual({
      iss: key.client_email,
      scope: 'https://www.googleapis.com/auth/webmasters.readonly',
      aud: 'https://oauth2.googleapis.com/token',
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 3600,
    });
  });

  it('refuses unusable credentials', () => {
    expect(() => parseServiceAccount('{nope')).toThrow(/JSON key file/);
    expect(() => parseServiceAccount({ client_email: 'a@b' })).toThrow(/private_key/);
    expect(() => parseServiceAccount({ client_email: 'a@b', private_key: 'not a key' })).toThrow(/PEM/);
  });
});

describe('Google Search Console adapter', () => {
  it('queries Search Analytics by date with a bearer token obtained once', async () => {
    const gsc = createGoogleSearchConsole({ clock: () => now });
    google.calls.length = 0;
    const days = await gsc.searchAnalytics({ property: 'sc-domain:shop.test', credentials, startDate: '2025-02-10', endDate: '2025-03-09' });
    expect(days).toEqual([
      { date: '2025-03-01', clicks: 10, impressions: 200, ctr: 0.05, position: 8.5 },
      { date: '2025-03-02', clicks: 30, impressions: 300, ctr: 0.1, position: 6.25 },
    ]);
    const query = google.calls.find((c) => c.endpoint === 'searchAnalytics')!;
    expect(query.site).toBe('sc-domain:shop.test');
    expect(query.body).toMatchObject({ startDate: '2025-02-10', endDate: '2025-03-09', dimensions: ['date'] });
    await gsc.searchAnalytics({ property: 'sc-domain:shop.test', credentials, startDate: '2025-02-10', endDate: '2025-03-09' });
    expect(google.calls.filter((c) => c.endpoint === 'token')).toHaveLength(1);
  });

  it('encodes a URL-prefix property in the path and reads an empty range as no rows', async () => {
    const gsc = createGoogleSearchConsole({ clock: () => now });
    expect(await gsc.searchAnalytics({ property: 'https://www.shop.test/', credentials, startDate: '2025-02-10', endDate: '2025-03-09' })).toEqual([]);
    expect(google.calls.at(-1)!.site).toBe('https://www.shop.test/');
  });

  it('inspects a URL: verdict and coverage state', async () => {
    const gsc = createGoogleSearchConsole({ clock: () => now });
    expect(await gsc.inspectUrl({ property: 'https://www.shop.test/', credentials, url: 'https://www.shop.test/' })).toEqual({
      url: 'https://www.shop.test/',
      verdict: 'PASS',
      coverageState: 'Submitted and indexed',
      indexingState: 'INDEXING_ALLOWED',
      lastCrawlTime: '2025-03-01T08:12:44Z',
    });
    expect(await gsc.inspectUrl({ property: 'https://www.shop.test/', credentials, url: 'https://www.shop.test/new' })).toMatchObject({
      verdict: 'NEUTRAL',
      coverageState: 'URL is unknown to Google',
    });
  });

  it('reports Google’s refusal of a property the account cannot read', async () => {
    const gsc = createGoogleSearchConsole({ clock: () => now });
    const error = await gsc.searchAnalytics({ property: 'sc-domain:other.test', credentials, startDate: '2025-02-10', endDate: '2025-03-09' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain("User does not have sufficient permission for site 'sc-domain:other.test'");
    expect(error.details).toMatchObject({ status: 403, code: 'PERMISSION_DENIED', retryable: false });
  });

  it('reports a key Google does not accept (invalid_grant)', async () => {
    const stranger = parseServiceAccount(serviceAccountKey('stranger@demo-project.iam.gserviceaccount.com'));
    const gsc = createGoogleSearchConsole({ clock: () => now });
    const error = await gsc.searchAnalytics({ property: 'sc-domain:shop.test', credentials: stranger, startDate: '2025-02-10', endDate: '2025-03-09' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('invalid_grant');
  });
});
