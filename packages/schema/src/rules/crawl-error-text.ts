/**
 * A failed crawl's `error` in the reader's language (docs/decisions/crawl-lifecycle.md). The
 * server stores `code: English message`; the code is never translated, the message is rendered
 * here from the code (and, for a site that could not be reached, from the stored cause, kept
 * as the crawler wrote it: `dns: getaddrinfo ENOTFOUND shop.example`).
 */
import type { Language } from '../errors.js';
import { localiseIssueDetails } from './issue-details.js';

/** The codes of a crawl's `error`, with their message in both languages. */
export const CRAWL_ERROR_MESSAGES = {
  'crawl.interrupted': {
    en: 'The crawl was interrupted too many times (the server stopped or crashed while it ran) and could not finish. Launch it again.',
    fr: 'Le crawl a été interrompu trop de fois (le serveur s’est arrêté ou a planté pendant qu’il tournait) et n’a pas pu finir. Relancez-le.',
  },
  'crawl.internal_error': {
    en: 'The crawl stopped on an internal error of the server. Launch it again; if it fails again, the operator has the details.',
    fr: 'Le crawl s’est arrêté sur une erreur interne du serveur. Relancez-le ; s’il échoue encore, l’opérateur a les détails.',
  },
  'crawl.invalid_pattern': {
    en: 'A pattern of the campaign is no longer accepted. Correct it and launch the crawl again.',
    fr: 'Un motif de la campagne n’est plus accepté. Corrigez-le et relancez le crawl.',
  },
  'crawl.site_unreachable': {
    en: 'The site could not be reached, so nothing of it was crawled.',
    fr: 'Le site n’a pas pu être joint : rien n’en a été exploré.',
  },
} as const;

export type CrawlErrorCode = keyof typeof CRAWL_ERROR_MESSAGES;

const UNREACHABLE = { en: 'The site could not be reached', fr: 'Le site n’a pas pu être joint' } as const;

/**
 * `crawl.site_unreachable: The site could not be reached: <cause> (<type>: <raw message>).`, in
 * English (stored); `type` is the crawler's failure type (dns, connection, tls, timeout…).
 */
export function siteUnreachableError(type: string, message: string): string {
  return `crawl.site_unreachable: ${unreachableSentence(`${type}: ${message}`, 'en')}`;
}

function unreachableSentence(cause: string, language: Language): string {
  const said = localiseIssueDetails(cause, language);
  return `${UNREACHABLE[language]}${language === 'fr' ? ' : ' : ': '}${said}.`;
}

/** The stored sentence; the cause in parentheses starts with the crawler's failure type. */
const STORED_UNREACHABLE = /^crawl\.site_unreachable: The site could not be reached: .*? \(((?:timeout|dns|connection|tls|protocol|address_refused): .*)\)\.$/s;

/**
 * A stored `error` in `language`: the code kept, the message rendered in that language. A
 * message written by the server with details (an invalid pattern's field and entry) is kept as
 * stored; a value this does not know is returned unchanged.
 */
export function localiseCrawlError<T extends string | null>(error: T, language: Language): T {
  if (error === null || language === 'en') return error;
  const unreachable = STORED_UNREACHABLE.exec(error);
  if (unreachable) return `crawl.site_unreachable: ${unreachableSentence(unreachable[1], language)}` as T;
  const colon = error.indexOf(': ');
  const code = colon === -1 ? error : error.slice(0, colon);
  const known = CRAWL_ERROR_MESSAGES[code as CrawlErrorCode];
  if (known && error.slice(colon + 2) === known.en) return `${code}: ${known[language]}` as T;
  return error;
}
