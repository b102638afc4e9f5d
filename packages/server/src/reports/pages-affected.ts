/**
 * What a report prints as a check's "pages affected". A site-wide check (robots.txt, sitemaps,
 * HTTPS redirection…) is found on one URL but concerns the whole site — the health score and the
 * fix list count it on every scored page (isSiteWideCheck) — so "1" would understate it: both
 * renderers print "whole site" instead, from this one function.
 */
import { isSiteWideCheck } from '@siteaudit/schema/rules';

/** `wholeSite` for a site-wide check, else its pages as `count` writes them (a number for a cell, text for the PDF). */
export function pagesAffected<T>(check: { name: string; pages: number }, wholeSite: string, count: (pages: number) => T): T | string {
  return isSiteWideCheck(check.name) ? wholeSite : count(check.pages);
}
