/**
 * What a report prints as a check's "pages affected". A site-wide check (robots.txt, sitemaps,
 * HTTPS redirection…) is found on one URL but concerns the whole site — the health score and the
 * fix list count it on every scored page (isSiteWideCheck) — so "1" would understate it. The PDF
 * prints "whole site"; the workbook keeps its column a number (every scored page, as the fix
 * list's impact counts it) and says "whole site" in a scope column beside it, so the column sorts
 * and sums as numbers.
 */
import { isSiteWideCheck } from '@siteaudit/schema/rules';

/** `wholeSite` for a site-wide check, else its pages as `count` writes them (text for the PDF). */
export function pagesAffected<T>(check: { name: string; pages: number }, wholeSite: string, count: (pages: number) => T): T | string {
  return isSiteWideCheck(check.name) ? wholeSite : count(check.pages);
}

/**
 * The workbook's two cells: the pages a check affects, as a number (a site-wide check: every
 * scored page, `scoredPages` when known), and its scope (`wholeSite`, or blank for a check of pages).
 */
export function pagesAffectedCells(check: { name: string; pages: number }, scoredPages: number | null | undefined, wholeSite: string): [number, string] {
  return isSiteWideCheck(check.name) ? [Math.max(scoredPages ?? 0, check.pages), wholeSite] : [check.pages, ''];
}
