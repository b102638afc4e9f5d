/**
 * msw stand-ins of the provider APIs, faithful to their documented answers, shared by the unit
 * tests of the adapters and the HTTP tests of the modules:
 * - DataForSEO v3 (docs.dataforseo.com): Basic auth; an envelope `{ version, status_code: 20000,
 *   status_message, time, cost, tasks_count, tasks_error, tasks: [{ id, status_code, status_message,
 *   path, data, result: [{ keyword, item_types, items: [{ type, rank_group, rank_absolute, domain,
 *   url, … }] }] }] }`; a refused task still answers HTTP 200 with its own status_code.
 * - Google: the OAuth 2.0 token endpoint (JWT bearer grant, RS256 assertion checked against the
 *   service account's public key), Search Analytics `searchAnalytics.query` and URL Inspection
 *   `index:inspect`, with Google's `{ error: { code, message, status } }` refusals.
 */
import { createPublicKey, generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { http, HttpResponse } from 'msw';

// ---------------------------------------------------------------------------------- DataForSEO

export interface SerpPage {
  /** Organic results in order; rank_group is their index + 1. */
  organic: { domain: string; url: string; title?: string }[];
  /** Other elements shown above the organic results (they shift rank_absolute, not rank_group). */
  features?: string[];
}

export interface KeywordOverview {
  search_volume: number | null;
  keyword_difficulty: number | null;
  main_intent: string | null;
}

export interface DataForSeoStandIn {
  handlers: ReturnType<typeof http.post>[];
  /** keyword → the SERP the stand-in answers; a keyword without one gets a SERP without the site. */
  serps: Map<string, SerpPage>;
  overview: Map<string, KeywordOverview>;
  /** Every task received, with its path. */
  calls: { path: string; task: any; authorization: string | null }[];
  /** Makes the next SERP task fail with a DataForSEO status (e.g. 40200 payment required). */
  failNext(statusCode: number, message: string): void;
}

const LOCATIONS: Record<string, number> = { France: 2250, 'United States': 2840 };

function envelope(path: string[], task: any, result: any[] | null, status = { code: 20000, message: 'Ok.' }) {
  const ok = status.code === 20000;
  return {
    version: '0.1.20250101',
    status_code: 20000,
    status_message: 'Ok.',
    time: '2.1044 sec.',
    cost: ok ? 0.002 : 0,
    tasks_count: 1,
    tasks_error: ok ? 0 : 1,
    tasks: [
      {
        id: randomUUID(),
        status_code: status.code,
        status_message: status.message,
        time: '2.0211 sec.',
        cost: ok ? 0.002 : 0,
        result_count: result ? result.length : 0,
        path,
        data: { api: path[1], function: path[path.length - 2], se: 'google', ...task },
        result,
      },
    ],
  };
}

export function dataForSeoStandIn(options: { login: string; password: string; base?: string }): DataForSeoStandIn {
  const base = options.base ?? 'https://api.dataforseo.com';
  const expected = `Basic ${Buffer.from(`${options.login}:${options.password}`).toString('base64')}`;
  const serps = new Map<string, SerpPage>();
  const overview = new Map<string, KeywordOverview>();
  const calls: DataForSeoStandIn['calls'] = [];
  let failure: { code: number; message: string } | null = null;

  const unauthorized = () =>
    HttpResponse.json(
      { version: '0.1.20250101', status_code: 40100, status_message: 'You are not authorized to access this resource.', time: '0 sec.', cost: 0, tasks_count: 0, tasks_error: 0, tasks: null },
      { status: 401 },
    );

  const serp = http.post(`${base}/v3/serp/google/organic/live/advanced`, async ({ request }) => {
    const authorization = request.headers.get('authorization');
    const tasks = (await request.json()) as any[];
    const task = tasks[0];
    calls.push({ path: '/v3/serp/google/organic/live/advanced', task, authorization });
    if (authorization !== expected) return unauthorized();
    const path = ['v3', 'serp', 'google', 'organic', 'live', 'advanced'];
    if (failure) {
      const f = failure;
      failure = null;
      return HttpResponse.json(envelope(path, task, null, { code: f.code, message: f.message }));
    }
    if (typeof task?.keyword !== 'string' || !task.keyword) return HttpResponse.json(envelope(path, task, null, { code: 40501, message: "Invalid Field: 'keyword'." }));
    if (!task.location_name && !task.location_code) return HttpResponse.json(envelope(path, task, null, { code: 40501, message: "Invalid Field: 'location_name'." }));

    const page = serps.get(task.keyword) ?? { organic: [{ domain: 'www.wikipedia.org', url: 'https://www.wikipedia.org/' }] };
    const depth = task.depth ?? 10;
    const items: any[] = [];
    let absolute = 0;
    for (const feature of page.features ?? []) {
      absolute++;
      items.push({ type: feature, rank_group: 1, rank_absolute: absolute, position: 'left', xpath: `/html[1]/body[1]/div[${absolute}]` });
    }
    page.organic.slice(0, depth).forEach((r, i) => {
      absolute++;
      items.push({
        type: 'organic',
        rank_group: i + 1,
        rank_absolute: absolute,
        position: 'left',
        xpath: `/html[1]/body[1]/div[${absolute}]`,
        domain: r.domain,
        title: r.title ?? r.domain,
        url: r.url,
        breadcrumb: r.url,
        website_name: r.domain,
        is_image: false,
        is_video: false,
        is_featured_snippet: false,
        is_malicious: false,
        is_web_story: false,
        description: 'A result.',
      });
    });
    const itemTypes = [...new Set(items.map((i) => i.type))];
    return HttpResponse.json(
      envelope(path, task, [
        {
          keyword: task.keyword,
          type: 'organic',
          se_domain: 'google.fr',
          location_code: task.location_code ?? LOCATIONS[task.location_name] ?? 2250,
          language_code: task.language_code,
          check_url: `https://www.google.fr/search?q=${encodeURIComponent(task.keyword)}&hl=${task.language_code}&num=${depth}`,
          datetime: '2025-03-10 09:00:00 +00:00',
          spell: null,
          refinement_chips: null,
          item_types: itemTypes,
          se_results_count: 1_250_000,
          items_count: items.length,
          items,
        },
      ]),
    );
  });

  const labs = http.post(`${base}/v3/dataforseo_labs/google/keyword_overview/live`, async ({ request }) => {
    const authorization = request.headers.get('authorization');
    const tasks = (await request.json()) as any[];
    const task = tasks[0];
    calls.push({ path: '/v3/dataforseo_labs/google/keyword_overview/live', task, authorization });
    if (authorization !== expected) return unauthorized();
    const path = ['v3', 'dataforseo_labs', 'google', 'keyword_overview', 'live'];
    if (!Array.isArray(task?.keywords) || task.keywords.length === 0) return HttpResponse.json(envelope(path, task, null, { code: 40501, message: "Invalid Field: 'keywords'." }));
    // Keywords missing from DataForSEO's database are left out of `items` (documented).
    const items = (task.keywords as string[])
      .map((k) => k.toLowerCase())
      .filter((k) => overview.has(k))
      .map((keyword) => {
        const o = overview.get(keyword)!;
        return {
          se_type: 'google',
          keyword,
          location_code: LOCATIONS[task.location_name] ?? 2250,
          language_code: task.language_code,
          search_partners: false,
          keyword_info: { se_type: 'google', last_updated_time: '2025-03-01 00:00:00 +00:00', competition: 0.4, competition_level: 'MEDIUM', cpc: 1.2, search_volume: o.search_volume, monthly_searches: [] },
          keyword_properties: { se_type: 'google', core_keyword: null, synonym_clustering_algorithm: 'text_processing', keyword_difficulty: o.keyword_difficulty, detected_language: 'fr', is_another_language: false },
          search_intent_info: { se_type: 'google', main_intent: o.main_intent, foreign_intent: null, last_updated_time: '2025-03-01 00:00:00 +00:00' },
        };
      });
    return HttpResponse.json(
      envelope(path, task, [
        { se_type: 'google', location_code: LOCATIONS[task.location_name] ?? 2250, language_code: task.language_code, total_count: items.length, items_count: items.length, items },
      ]),
    );
  });

  return {
    handlers: [serp, labs],
    serps,
    overview,
    calls,
    failNext(code, message) {
      failure = { code, message };
    },
  };
}

// -------------------------------------------------------------------------------------- Google

export interface ServiceAccountKey {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

/** A service-account key file as Google Cloud hands it out, with a fresh RSA key. */
export function serviceAccountKey(email = 'siteaudit@demo-project.iam.gserviceaccount.com'): ServiceAccountKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    type: 'service_account',
    project_id: 'demo-project',
    private_key_id: randomUUID().replace(/-/g, ''),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    client_email: email,
    client_id: '1234567890',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
}

export interface GoogleStandIn {
  handlers: ReturnType<typeof http.post>[];
  /** Registers an account (its key) as a user of these properties. */
  grant(key: ServiceAccountKey, properties: string[]): void;
  /** property → daily rows (date → metrics). */
  analytics: Map<string, Map<string, { clicks: number; impressions: number; position: number }>>;
  /** url → index status; a URL not listed is "URL is unknown to Google". */
  index: Map<string, { verdict: string; coverageState: string }>;
  calls: { endpoint: 'token' | 'searchAnalytics' | 'inspect'; body: any; site?: string }[];
  /** Holds the next Search Analytics answer until the returned function is called. */
  holdNextQuery(): () => void;
}

const googleError = (code: number, status: string, message: string) =>
  HttpResponse.json({ error: { code, message, errors: [{ message, domain: 'global', reason: status === 'PERMISSION_DENIED' ? 'forbidden' : 'badRequest' }], status } }, { status: code });

export function googleStandIn(): GoogleStandIn {
  const accounts = new Map<string, { publicKey: ReturnType<typeof createPublicKey>; properties: Set<string> }>();
  const tokens = new Map<string, string>();
  const analytics: GoogleStandIn['analytics'] = new Map();
  const index: GoogleStandIn['index'] = new Map();
  const calls: GoogleStandIn['calls'] = [];
  let hold: Promise<void> | null = null;

  const token = http.post('https://oauth2.googleapis.com/token', async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    calls.push({ endpoint: 'token', body: Object.fromEntries(form) });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return HttpResponse.json({ error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' + form.get('grant_type') }, { status: 400 });
    }
    const [h, c, s] = (form.get('assertion') ?? '').split('.');
    let header: any;
    let claims: any;
    try {
      header = JSON.parse(Buffer.from(h, 'base64url').toString());
      claims = JSON.parse(Buffer.from(c, 'base64url').toString());
    } catch {
      return HttpResponse.json({ error: 'invalid_grant', error_description: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe' }, { status: 400 });
    }
    const account = accounts.get(claims.iss);
    if (header.alg !== 'RS256' || !account || !verify('sha256', Buffer.from(`${h}.${c}`), account.publicKey, Buffer.from(s, 'base64url'))) {
      return HttpResponse.json({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }, { status: 400 });
    }
    if (claims.aud !== 'https://oauth2.googleapis.com/token' || claims.exp - claims.iat > 3600 || typeof claims.scope !== 'string') {
      return HttpResponse.json({ error: 'invalid_grant', error_description: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe' }, { status: 400 });
    }
    const access = `ya29.${randomUUID().replace(/-/g, '')}`;
    tokens.set(access, claims.iss);
    return HttpResponse.json({ access_token: access, expires_in: 3599, token_type: 'Bearer' });
  });

  const caller = (request: Request) => tokens.get((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''));

  const query = http.post('https://www.googleapis.com/webmasters/v3/sites/:site/searchAnalytics/query', async ({ request, params }) => {
    const raw = String(params.site);
    const site = raw.includes('%') ? decodeURIComponent(raw) : raw;
    const body = (await request.json()) as any;
    calls.push({ endpoint: 'searchAnalytics', body, site });
    if (hold) await hold;
    const email = caller(request);
    if (!email) return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    if (!accounts.get(email)!.properties.has(site)) {
      return googleError(403, 'PERMISSION_DENIED', `User does not have sufficient permission for site '${site}'. See also: https://support.google.com/webmasters/answer/2451999.`);
    }
    if (!body.startDate || !body.endDate) return googleError(400, 'INVALID_ARGUMENT', 'startDate and endDate are required.');
    const days = [...(analytics.get(site)?.entries() ?? [])]
      .filter(([date]) => date >= body.startDate && date <= body.endDate)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, m]) => ({ keys: [date], clicks: m.clicks, impressions: m.impressions, ctr: m.impressions ? m.clicks / m.impressions : 0, position: m.position }));
    // No data: Google leaves `rows` out of the answer.
    return HttpResponse.json(days.length ? { rows: days, responseAggregationType: 'byProperty' } : { responseAggregationType: 'byProperty' });
  });

  const inspect = http.post('https://searchconsole.googleapis.com/v1/urlInspection/index:inspect', async ({ request }) => {
    const body = (await request.json()) as any;
    calls.push({ endpoint: 'inspect', body });
    const email = caller(request);
    if (!email) return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    if (!accounts.get(email)!.properties.has(body.siteUrl)) {
      return googleError(403, 'PERMISSION_DENIED', 'You do not own this site, or the inspected URL is not part of this property.');
    }
    const known = index.get(body.inspectionUrl);
    const indexStatusResult = known
      ? {
          verdict: known.verdict,
          coverageState: known.coverageState,
          robotsTxtState: 'ALLOWED',
          indexingState: 'INDEXING_ALLOWED',
          lastCrawlTime: '2025-03-01T08:12:44Z',
          pageFetchState: 'SUCCESSFUL',
          googleCanonical: body.inspectionUrl,
          userCanonical: body.inspectionUrl,
          crawledAs: 'MOBILE',
        }
      : { verdict: 'NEUTRAL', coverageState: 'URL is unknown to Google', robotsTxtState: 'ROBOTS_TXT_STATE_UNSPECIFIED', indexingState: 'INDEXING_STATE_UNSPECIFIED', pageFetchState: 'PAGE_FETCH_STATE_UNSPECIFIED' };
    return HttpResponse.json({
      inspectionResult: {
        inspectionResultLink: `https://search.google.com/search-console/inspect?resource_id=${encodeURIComponent(body.siteUrl)}&id=${randomUUID()}`,
        indexStatusResult,
        mobileUsabilityResult: { verdict: 'VERDICT_UNSPECIFIED' },
      },
    });
  });

  return {
    handlers: [token, query, inspect],
    grant(key, properties) {
      accounts.set(key.client_email, { publicKey: createPublicKey(key.private_key), properties: new Set(properties) });
    },
    analytics,
    index,
    calls,
    holdNextQuery() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = null;
          resolve();
        };
      });
      return release;
    },
  };
}
