/**
 * The values of a failed crawl's `error` (docs/decisions/crawl-lifecycle.md): a code of this
 * catalogue, then a human message, as `code: message`, stored in English and answered in the
 * caller's language (`localiseCrawlError` of the schema's rules). What actually went wrong (a
 * database or driver message) goes to the operator's log, never to the API or a webhook; a site
 * that could not be reached is the exception: its cause is the site's, and is the point.
 */
import { CRAWL_ERROR_MESSAGES, type CrawlErrorCode } from '@siteaudit/schema/rules';
import { JobInterruptedError } from '../../jobs/job-runner.js';

export { siteUnreachableError } from '@siteaudit/schema/rules';

/** `detail`, when given, replaces the generic message (it must never hold a driver's text). */
export function crawlError(code: Exclude<CrawlErrorCode, 'crawl.site_unreachable'>, detail?: string): string {
  return `${code}: ${detail ?? CRAWL_ERROR_MESSAGES[code].en}`;
}

/** The `error` of a crawl whose job failed for good with `cause`. */
export function crawlErrorFor(cause: unknown): string {
  return crawlError(cause instanceof JobInterruptedError ? 'crawl.interrupted' : 'crawl.internal_error');
}
