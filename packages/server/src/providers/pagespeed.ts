/**
 * What the crawl's PageSpeed step needs from a measurement source: the Lighthouse performance
 * score (0..100) of a page on a strategy (mobile or desktop), or why it could not be measured.
 * Two adapters: Lighthouse on a local Chromium (lighthouse.ts) and the PageSpeed Insights API v5
 * (below). With none configured the step is skipped with `no_provider` (modules/crawls/pagespeed-step.ts).
 */
import type { FetchLike } from './http.js';

export type PageSpeedStrategy = 'mobile' | 'desktop';

export interface PageSpeedRequest {
  url: string;
  strategy: PageSpeedStrategy;
}

export interface PageSpeedMeasurement extends PageSpeedRequest {
  /** Lighthouse performance score × 100, rounded; null when the measurement was refused. */
  score: number | null;
  /** Why the measurement was refused: a Lighthouse runtime error code (NO_FCP, FAILED_DOCUMENT_REQUEST…) or ours. */
  error: string | null;
}

export interface PageSpeedProvider {
  /** `lighthouse` or `pagespeed_insights`: stored as the result's `provider`. */
  readonly name: string;
  /**
   * Measures every request and answers one measurement per request, in order. A refused page is
   * a measurement with an error, never a throw; a throw means the provider as a whole failed.
   */
  measure(requests: PageSpeedRequest[], options?: { signal?: AbortSignal }): Promise<PageSpeedMeasurement[]>;
}

/** The documented endpoint (developers.google.com/speed/docs/insights/rest/v5/pagespeedapi/runpagespeed). */
export const PAGESPEED_INSIGHTS_URL = 'https://www.googleapis.com/pagespeedonline/v5/runPagespeed';

export interface PageSpeedInsightsOptions {
  /** API key (Google Cloud console, PageSpeed Insights API enabled). Without one Google allows very few queries. */
  apiKey?: string | null;
  fetch?: FetchLike;
  /** Default PAGESPEED_INSIGHTS_URL. */
  endpoint?: string;
  /** One call runs Lighthouse on Google's side: often 10 to 30 s. Default 120 s. */
  timeoutMs?: number;
  /** Calls in flight at once. Default 2. */
  concurrency?: number;
  /** Extra attempts on 429, 503 and network failures. Default 1. */
  retries?: number;
  /** Wait before a retry (doubles each time). Default 5 s. */
  retryDelayMs?: number;
}

/** The Lighthouse score of a category, 0..1 or null, as the LHR holds it. */
export function lighthouseScore(lhr: any): number | null {
  const score = lhr?.categories?.performance?.score;
  return typeof score === 'number' && Number.isFinite(score) ? Math.round(score * 100) : null;
}

/** Google answers a Lighthouse failure as 500 "Lighthouse returned error: CODE. …": keep the code. */
function refusalCode(status: number, body: any): string {
  const message: string = body?.error?.message ?? '';
  const lighthouse = /Lighthouse returned error:\s*([A-Z_]+)/.exec(message);
  if (lighthouse) return lighthouse[1];
  if (status === 429) return 'RATE_LIMITED';
  const info = (body?.error?.details as { reason?: unknown }[] | undefined)?.find((d) => typeof d?.reason === 'string');
  if (info) return String(info.reason);
  if (typeof body?.error?.status === 'string') return body.error.status;
  return `HTTP_${status}`;
}

async function pool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(Math.max(1, size), items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  });
  await Promise.all(runners);
  return out;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });

/**
 * The PageSpeed Insights API v5: `GET runPagespeed?url=…&strategy=mobile|desktop&category=performance&key=…`;
 * the score is `lighthouseResult.categories.performance.score × 100`. A page Lighthouse could not
 * measure (Google answers 500 with "Lighthouse returned error: CODE", or 200 with a
 * `lighthouseResult.runtimeError`) is a refused measurement with that code; 429 and 503 are
 * retried, then refused.
 * @example createPageSpeedInsights({ apiKey: process.env.PAGESPEED_API_KEY })
 */
export function createPageSpeedInsights(options: PageSpeedInsightsOptions = {}): PageSpeedProvider {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const endpoint = options.endpoint ?? PAGESPEED_INSIGHTS_URL;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const retries = options.retries ?? 1;
  const retryDelayMs = options.retryDelayMs ?? 5_000;

  async function one(request: PageSpeedRequest, signal?: AbortSignal): Promise<PageSpeedMeasurement> {
    const url = new URL(endpoint);
    url.searchParams.set('url', request.url);
    url.searchParams.set('strategy', request.strategy);
    url.searchParams.set('category', 'performance');
    if (options.apiKey) url.searchParams.set('key', options.apiKey);
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      let status: number;
      let body: any = null;
      try {
        const response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        status = response.status;
        const text = await response.text();
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt < retries) {
          await sleep(retryDelayMs * 2 ** attempt, signal);
          continue;
        }
        return { ...request, score: null, error: timeout.aborted ? 'TIMEOUT' : 'NETWORK_ERROR' };
      }
      if ((status === 429 || status === 503) && attempt < retries) {
        await sleep(retryDelayMs * 2 ** attempt, signal);
        continue;
      }
      if (status !== 200) return { ...request, score: null, error: refusalCode(status, body) };
      const lhr = body?.lighthouseResult;
      if (lhr?.runtimeError?.code) return { ...request, score: null, error: String(lhr.runtimeError.code) };
      const score = lighthouseScore(lhr);
      return score === null ? { ...request, score: null, error: 'NO_SCORE' } : { ...request, score, error: null };
    }
  }

  return {
    name: 'pagespeed_insights',
    async measure(requests, { signal } = {}) {
      return pool(requests, options.concurrency ?? 2, (r) => one(r, signal));
    },
  };
}

