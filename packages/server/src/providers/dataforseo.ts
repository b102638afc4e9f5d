/**
 * DataForSEO adapters (https://docs.dataforseo.com/v3/): the Google organic SERP in live mode for
 * positions, and DataForSEO Labs keyword overview for search volume, difficulty and intent.
 * Authentication is HTTP Basic with the API login and password. Every answer is an envelope
 * `{ status_code, status_message, tasks: [{ status_code, status_message, result }] }` where 20000
 * means success; a refused task still comes back with HTTP 200, so both levels are checked.
 */
import { ProviderError, requestJson, type FetchLike } from './http.js';
import { sameSite, type KeywordData, type KeywordDataProvider, type KeywordDataQuery, type SerpProvider, type SerpQuery, type SerpResult } from './serp.js';

export const DATAFORSEO_BASE_URL = 'https://api.dataforseo.com';
const OK = 20000;
/** Results fetched per SERP: the spec's "outside the top 100" needs the first 100. */
export const SERP_DEPTH = 100;

export interface DataForSeoOptions {
  login: string;
  password: string;
  baseUrl?: string;
  fetch?: FetchLike;
  timeoutMs?: number;
}

interface Task {
  status_code?: number;
  status_message?: string;
  result?: any[] | null;
}

/** Location by name (`France`) or by DataForSEO location code (`2250`). */
function locationField(location: string): { location_name: string } | { location_code: number } {
  return /^\d+$/.test(location) ? { location_code: Number(location) } : { location_name: location };
}

function client(options: DataForSeoOptions) {
  const base = (options.baseUrl ?? DATAFORSEO_BASE_URL).replace(/\/$/, '');
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const authorization = `Basic ${Buffer.from(`${options.login}:${options.password}`).toString('base64')}`;

  /** One task per call: returns that task's first result, or throws with DataForSEO's own message. */
  return async function post(path: string, task: Record<string, unknown>, signal?: AbortSignal): Promise<any> {
    const { status, json } = await requestJson('dataforseo', fetchImpl, `${base}${path}`, {
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify([task]),
      timeoutMs: options.timeoutMs,
      signal,
    });
    if (status < 200 || status >= 300 || !json || json.status_code !== OK) {
      throw new ProviderError('dataforseo', json?.status_message ?? `HTTP ${status}`, {
        status,
        code: json?.status_code,
        retryable: status >= 500 || status === 429 || (typeof json?.status_code === 'number' && json.status_code >= 50000),
      });
    }
    const first = (json.tasks as Task[] | undefined)?.[0];
    if (!first) throw new ProviderError('dataforseo', 'answer has no task', { status });
    if (first.status_code !== OK) {
      throw new ProviderError('dataforseo', first.status_message ?? 'task failed', {
        status,
        code: first.status_code,
        retryable: typeof first.status_code === 'number' && first.status_code >= 50000,
      });
    }
    return first.result?.[0] ?? null;
  };
}

/**
 * SERP positions from `POST /v3/serp/google/organic/live/advanced`. The position is the organic
 * `rank_group` (rank among organic results, what rank trackers show), not `rank_absolute`
 * (which also counts ads and SERP features); the site's best organic result wins.
 */
export function createDataForSeoSerp(options: DataForSeoOptions): SerpProvider {
  const post = client(options);
  return {
    name: 'dataforseo',
    async check(query: SerpQuery, opts = {}): Promise<SerpResult> {
      const result = await post(
        '/v3/serp/google/organic/live/advanced',
        { keyword: query.keyword, ...locationField(query.location), language_code: query.language, device: query.device, depth: SERP_DEPTH },
        opts.signal,
      );
      const items: any[] = Array.isArray(result?.items) ? result.items : [];
      const organic = items
        .filter((item) => item?.type === 'organic' && typeof item.rank_group === 'number' && typeof item.domain === 'string')
        .sort((a, b) => a.rank_group - b.rank_group);
      const mine = organic.find((item) => item.rank_group <= 100 && sameSite(item.domain, query.domain));
      const types: string[] = Array.isArray(result?.item_types) ? result.item_types : [...new Set(items.map((i) => i?.type).filter(Boolean))];
      return {
        position: mine ? mine.rank_group : null,
        url: mine ? (mine.url ?? null) : null,
        serpFeatures: types.filter((t) => typeof t === 'string' && t !== 'organic').sort(),
      };
    },
  };
}

/**
 * Keyword data from `POST /v3/dataforseo_labs/google/keyword_overview/live`: `keyword_info.search_volume`,
 * `keyword_properties.keyword_difficulty` (0–100) and `search_intent_info.main_intent`.
 */
export function createDataForSeoKeywordData(options: DataForSeoOptions): KeywordDataProvider {
  const post = client(options);
  /** The endpoint takes at most 700 keywords per task. */
  const BATCH = 700;
  return {
    name: 'dataforseo',
    async lookup(query: KeywordDataQuery, opts = {}): Promise<KeywordData[]> {
      const out: KeywordData[] = [];
      for (let i = 0; i < query.keywords.length; i += BATCH) {
        const result = await post(
          '/v3/dataforseo_labs/google/keyword_overview/live',
          { keywords: query.keywords.slice(i, i + BATCH), ...locationField(query.location), language_code: query.language },
          opts.signal,
        );
        for (const item of Array.isArray(result?.items) ? result.items : []) {
          if (typeof item?.keyword !== 'string') continue;
          const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);
          out.push({
            keyword: item.keyword,
            searchVolume: int(item.keyword_info?.search_volume),
            keywordDifficulty: int(item.keyword_properties?.keyword_difficulty),
            searchIntent: typeof item.search_intent_info?.main_intent === 'string' ? item.search_intent_info.main_intent : null,
          });
        }
      }
      return out;
    },
  };
}
