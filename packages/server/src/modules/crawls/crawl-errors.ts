/**
 * The values of a failed crawl's `error` (docs/decisions/crawl-lifecycle.md): a code of this
 * catalogue, then a human message, as `code: message`. What actually went wrong (a database or
 * driver message) goes to the operator's log, never to the API or a webhook.
 */
import { JobInterruptedError } from '../../jobs/job-runner.js';

export const CRAWL_ERRORS = {
  'crawl.interrupted': 'The crawl was interrupted too many times (the server stopped or crashed while it ran) and could not finish. Launch it again.',
  'crawl.internal_error': 'The crawl stopped on an internal error of the server. Launch it again; if it fails again, the operator has the details.',
  // Stored before the pattern rules of docs/decisions/url-normalisation.md: the detail names the field and the entry.
  'crawl.invalid_pattern': 'A pattern of the campaign is no longer accepted. Correct it and launch the crawl again.',
} as const;

export type CrawlErrorCode = keyof typeof CRAWL_ERRORS;

/** `detail`, when given, replaces the generic message (it must never hold a driver's text). */
export function crawlError(code: CrawlErrorCode, detail?: string): string {
  return `${code}: ${detail ?? CRAWL_ERRORS[code]}`;
}

/** The `error` of a crawl whose job failed for good with `cause`. */
export function crawlErrorFor(cause: unknown): string {
  return crawlError(cause instanceof JobInterruptedError ? 'crawl.interrupted' : 'crawl.internal_error');
}
