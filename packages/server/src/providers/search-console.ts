/**
 * Google Search Console adapter: Search Analytics (`searchAnalytics.query` of the Webmasters v3
 * API) for the daily performance series, and the URL Inspection API for indexation, both with
 * a service account's access token (scope webmasters.readonly, which both accept).
 */
import { createTokenSource, type ServiceAccountCredentials } from './google-auth.js';
import { ProviderError, requestJson, type FetchLike } from './http.js';

export const WEBMASTERS_BASE_URL = 'https://www.googleapis.com/webmasters/v3';
export const URL_INSPECTION_URL = 'https://searchconsole.googleapis.com/v1/urlInspection/index:inspect';
export const SEARCH_CONSOLE_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';
/** Search Analytics returns at most 25,000 rows a call; one row a day never comes near it. */
const ROW_LIMIT = 25_000;

export interface SearchAnalyticsDay {
  date: string;
  clicks: number;
  impressions: number;
  /** 0..1 */
  ctr: number;
  position: number;
}

export interface UrlInspectionResult {
  url: string;
  /** PASS, PARTIAL, FAIL, NEUTRAL or VERDICT_UNSPECIFIED: PASS means the URL is on Google. */
  verdict: string;
  coverageState: string | null;
  indexingState: string | null;
  lastCrawlTime: string | null;
}

export interface SearchConsoleRequest {
  /** `sc-domain:example.com` or a URL-prefix property such as `https://www.example.com/`. */
  property: string;
  credentials: ServiceAccountCredentials;
  signal?: AbortSignal;
}

export interface SearchConsoleProvider {
  readonly name: string;
  /** Daily totals of web search, one row per day that has data, from `startDate` to `endDate` inclusive. */
  searchAnalytics(input: SearchConsoleRequest & { startDate: string; endDate: string }): Promise<SearchAnalyticsDay[]>;
  inspectUrl(input: SearchConsoleRequest & { url: string }): Promise<UrlInspectionResult>;
}

export interface GoogleSearchConsoleOptions {
  fetch?: FetchLike;
  clock?: () => Date;
  tokenUrl?: string;
  webmastersBaseUrl?: string;
  urlInspectionUrl?: string;
  timeoutMs?: number;
}

/** Google's error body: `{ error: { code, message, status } }`. */
function googleError(provider: string, status: number, json: any): ProviderError {
  const message = json?.error?.message ?? `HTTP ${status}`;
  return new ProviderError(provider, message, { status, code: json?.error?.status, retryable: status === 429 || status >= 500 });
}

export function createGoogleSearchConsole(options: GoogleSearchConsoleOptions = {}): SearchConsoleProvider {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const tokens = createTokenSource({ fetch: fetchImpl, clock: options.clock ?? (() => new Date()), tokenUrl: options.tokenUrl, timeoutMs: options.timeoutMs });
  const webmasters = (options.webmastersBaseUrl ?? WEBMASTERS_BASE_URL).replace(/\/$/, '');

  async function call(url: string, input: SearchConsoleRequest, body: unknown): Promise<any> {
    const token = await tokens.token(input.credentials, SEARCH_CONSOLE_SCOPE, input.signal);
    const { status, json } = await requestJson('google-search-console', fetchImpl, url, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: options.timeoutMs,
      signal: input.signal,
    });
    if (status !== 200) throw googleError('google-search-console', status, json);
    return json;
  }

  return {
    name: 'google',
    async searchAnalytics(input) {
      const url = `${webmasters}/sites/${encodeURIComponent(input.property)}/searchAnalytics/query`;
      const json = await call(url, input, { startDate: input.startDate, endDate: input.endDate, dimensions: ['date'], type: 'web', rowLimit: ROW_LIMIT });
      // No data in the range: Google leaves `rows` out.
      const rows: any[] = Array.isArray(json?.rows) ? json.rows : [];
      return rows
        .filter((row) => Array.isArray(row.keys) && typeof row.keys[0] === 'string')
        .map((row) => ({
          date: row.keys[0] as string,
          clicks: Number(row.clicks ?? 0),
          impressions: Number(row.impressions ?? 0),
          ctr: Number(row.ctr ?? 0),
          position: Number(row.position ?? 0),
        }))
        .sort((a, b) => a.date.localeCompare(b.date));
    },
    async inspectUrl(input) {
      const json = await call(options.urlInspectionUrl ?? URL_INSPECTION_URL, input, { inspectionUrl: input.url, siteUrl: input.property });
      const status = json?.inspectionResult?.indexStatusResult;
      if (!status) throw new ProviderError('google-search-console', 'inspection answer has no indexStatusResult', { status: 200 });
      return {
        url: input.url,
        verdict: typeof status.verdict === 'string' ? status.verdict : 'VERDICT_UNSPECIFIED',
        coverageState: status.coverageState ?? null,
        indexingState: status.indexingState ?? null,
        lastCrawlTime: status.lastCrawlTime ?? null,
      };
    },
  };
}
