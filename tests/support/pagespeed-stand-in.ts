/**
 * An msw stand-in of the PageSpeed Insights API v5, faithful to its documented answers
 * (developers.google.com/speed/docs/insights/rest/v5/pagespeedapi/runpagespeed):
 * - `GET https://www.googleapis.com/pagespeedonline/v5/runPagespeed?url=…&strategy=…&category=…&key=…`
 *   answers `{ captchaResult, kind: 'pagespeedonline#result', id, loadingExperience,
 *   lighthouseResult: { requestedUrl, finalUrl, lighthouseVersion, configSettings, categories:
 *   { performance: { id, title, score (0..1) } }, audits, runtimeError? }, analysisUTCTimestamp, version }`;
 * - a page Lighthouse cannot load: 500 `{ error: { code, message: "Lighthouse returned error:
 *   FAILED_DOCUMENT_REQUEST. …", errors: [{ domain: 'lighthouse', reason: 'lighthouseUserError' }] } }`;
 * - a bad key: 400 INVALID_ARGUMENT with an ErrorInfo `API_KEY_INVALID`; over quota: 429 RESOURCE_EXHAUSTED.
 */
import { http, HttpResponse } from 'msw';
import { PAGESPEED_INSIGHTS_URL } from '../../packages/server/src/providers/index.js';

export interface PageSpeedStandIn {
  handlers: ReturnType<typeof http.get>[];
  /** url → Lighthouse scores (0..1) per strategy; a URL without one cannot be loaded by Lighthouse. */
  scores: Map<string, { mobile: number; desktop: number }>;
  /** url → a Lighthouse runtime error reported inside a 200 answer. */
  runtimeErrors: Map<string, string>;
  calls: { url: string | null; strategy: string | null; categories: string[]; key: string | null }[];
  /** The next `n` calls answer 429. */
  rateLimit(n: number): void;
  reset(): void;
}

const googleError = (code: number, status: string | undefined, message: string, extra: Record<string, unknown> = {}) =>
  HttpResponse.json({ error: { code, message, errors: [{ message, domain: 'global', reason: code === 429 ? 'rateLimitExceeded' : 'badRequest' }], ...(status ? { status } : {}), ...extra } }, { status: code });

export function pageSpeedStandIn(options: { apiKey: string }): PageSpeedStandIn {
  const scores: PageSpeedStandIn['scores'] = new Map();
  const runtimeErrors: PageSpeedStandIn['runtimeErrors'] = new Map();
  const calls: PageSpeedStandIn['calls'] = [];
  let limited = 0;

  const run = http.get(PAGESPEED_INSIGHTS_URL, ({ request }) => {
    const q = new URL(request.url).searchParams;
    const url = q.get('url');
    const strategy = q.get('strategy');
    calls.push({ url, strategy, categories: q.getAll('category'), key: q.get('key') });
    if (limited > 0) {
      limited--;
      return googleError(429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'pagespeedonline.googleapis.com' for consumer 'project_number:1234'.");
    }
    if (q.get('key') !== options.apiKey) {
      return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', {
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'pagespeedonline.googleapis.com' } }],
      });
    }
    if (!url || !/^https?:\/\//.test(url)) return googleError(400, 'INVALID_ARGUMENT', `Invalid value '${url}' for query parameter 'url'.`);
    if (strategy && strategy !== 'mobile' && strategy !== 'desktop') return googleError(400, 'INVALID_ARGUMENT', `Invalid value '${strategy}' for query parameter 'strategy'.`);
    const formFactor = strategy ?? 'desktop';
    const known = scores.get(url);
    if (!known && !runtimeErrors.has(url)) {
      const message =
        'Lighthouse returned error: FAILED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load the page you requested. Make sure you are testing the correct URL and that the server is properly responding to all requests. (Details: net::ERR_CONNECTION_FAILED)';
      return HttpResponse.json({ error: { code: 500, message, errors: [{ message, domain: 'lighthouse', reason: 'lighthouseUserError' }] } }, { status: 500 });
    }
    const runtimeError = runtimeErrors.get(url);
    const score = runtimeError ? null : known![formFactor as 'mobile' | 'desktop'];
    return HttpResponse.json({
      captchaResult: 'CAPTCHA_NOT_NEEDED',
      kind: 'pagespeedonline#result',
      id: url,
      loadingExperience: { initial_url: url },
      lighthouseResult: {
        requestedUrl: url,
        finalUrl: url,
        mainDocumentUrl: url,
        finalDisplayedUrl: url,
        lighthouseVersion: '12.6.0',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/137.0.0.0 Safari/537.36',
        fetchTime: '2025-03-10T09:00:00.000Z',
        environment: { networkUserAgent: 'Mozilla/5.0 (compatible; Google-PageSpeed)', hostUserAgent: 'HeadlessChrome', benchmarkIndex: 2000 },
        runWarnings: [],
        configSettings: { emulatedFormFactor: formFactor, formFactor, locale: 'en-US', onlyCategories: q.getAll('category'), channel: 'lr' },
        audits: { 'first-contentful-paint': { id: 'first-contentful-paint', title: 'First Contentful Paint', score, numericValue: 1200, displayValue: '1.2 s' } },
        categories: { performance: { id: 'performance', title: 'Performance', score, auditRefs: [{ id: 'first-contentful-paint', weight: 10, group: 'metrics', acronym: 'FCP' }] } },
        ...(runtimeError ? { runtimeError: { code: runtimeError, message: `Lighthouse error ${runtimeError}` } } : {}),
        timing: { total: 10_500 },
      },
      analysisUTCTimestamp: '2025-03-10T09:00:00.000Z',
      version: { major: 1, minor: 0 },
    });
  });

  return {
    handlers: [run],
    scores,
    runtimeErrors,
    calls,
    rateLimit(n) {
      limited = n;
    },
    reset() {
      scores.clear();
      runtimeErrors.clear();
      calls.length = 0;
      limited = 0;
    },
  };
}
