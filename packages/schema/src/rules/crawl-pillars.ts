/**
 * The names a crawl's changes are given in (kinds, pillars): the contract's resources and the
 * rules (crawl-changes.ts) both read them, so they import nothing.
 */

/**
 * The kinds of change between two crawls, in the order the changes list gives them. An issue
 * change is one occurrence; one that went away is `issue_fixed` when its page is still there
 * (answers 2xx, indexable) and `issue_gone_with_page` when the page went (removed, redirected,
 * 4xx/5xx, no answer, blocked by robots.txt or noindex). A page whose status is the same but whose
 * redirect target is not (it became a redirect, a meta-refresh stub answering 200 included; it
 * points elsewhere; it is a page again) is `redirect_changed`; when the status changed too, it is
 * `status_changed` alone, which carries both targets.
 */
export const CHANGE_KINDS = ['issue_new', 'issue_fixed', 'issue_gone_with_page', 'issue_persisting', 'page_added', 'page_removed', 'status_changed', 'redirect_changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The pillars a crawl is scored on, and the issue categories each is computed from (docs/decisions/scorecard.md). */
export const CRAWL_PILLAR_CATEGORIES = {
  technique: ['http', 'indexability', 'canonicals', 'robots_sitemaps', 'links_images', 'international', 'performance_security'],
  contenu: ['titles', 'content', 'structured_data', 'ai_reachability'],
  accessibilite: ['accessibility'],
} as const;
export type CrawlPillar = keyof typeof CRAWL_PILLAR_CATEGORIES;
export const CRAWL_PILLARS = ['technique', 'contenu', 'accessibilite'] as const satisfies readonly CrawlPillar[];
