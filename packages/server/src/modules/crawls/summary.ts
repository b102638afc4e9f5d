import type { Knex } from 'knex';
import { countChecks, htmlPagesOf, type CheckCount, scoredPages, storedSummary, type StoredSummary, type StoredTemplate } from './check-counts.js';
import type { IssueSummary, Language, TemplatePattern } from '@siteaudit/schema';
import { checkLabel, checkScope, type CheckName, MAX_SECTION_PATTERNS, mayBeTemplate, SECTION_MIN_PAGES, bySummaryOrder, templatePattern, topCause, type TopCause, causeRanges, rangedDetails } from '@siteaudit/schema/rules';
import { issueDetailsIn } from '../../reports/issue-details.js';
import type { CrawlRow } from './crawl-row.js';

/**
 * The issue summary of a crawl: one group per issue name, errors first then the most frequent;
 * `totals` are the sums of the groups by severity; each group has its check's label in `language`.
 * Served by the API and printed in exports.
 * Each group says how many pages it is on, and the template decisions its occurrences make
 * (`templates`: one cause on more than half of the HTML pages of the site, or else of a section,
 * schema rules/template-patterns.ts).
 */
export async function issueSummary(knex: Knex, crawl: Pick<CrawlRow, 'id' | 'protection_occurrences'>, language: Language = 'en'): Promise<IssueSummary> {
  const summary = (await storedSummary(knex, crawl.id)) ?? (await summariseIssues(knex, crawl.id));
  const groups = [...summary.checks].sort(bySummaryOrder);
  const totals = { error: 0, warning: 0, info: 0 };
  const out: IssueSummary['groups'] = [];
  for (const g of groups) {
    const { occurrences, pages } = g;
    totals[g.severity] += occurrences;
    const templates = (summary.templates[g.name] ?? []).map((t) => worded(g.name, t, language));
    out.push({ name: g.name, label: checkLabel(g.name, language), severity: g.severity, category: g.category, occurrences, pages, templates });
  }
  return { crawl_id: crawl.id, totals, protection_occurrences: crawl.protection_occurrences, groups: out };
}

/** A stored template decision in the reader's language. */
function worded(name: string, { cause, ...t }: StoredTemplate, language: Language): TemplatePattern {
  return { scope: t.scope, section: t.section, pages: t.pages, share: t.share, details: rangedDetails(cause, (d) => issueDetailsIn(name, d, language)), examples: t.examples };
}

/**
 * A crawl's summary counted from its issues, in no language: what a crawl stores when it settles
 * (`storeSummary`), and what a crawl still running, or settled before summaries were stored, is
 * read from. `checks`: its counts per check, when already read.
 */
export async function summariseIssues(knex: Knex, crawlId: string, checks?: CheckCount[]): Promise<StoredSummary> {
  const counted = checks ?? (await countChecks(knex, crawlId));
  const scored = await scoredPages(knex, crawlId);
  const html = await htmlPages(knex, crawlId);
  const templates: StoredSummary['templates'] = {};
  for (const g of counted) {
    const found = await templatesOf(knex, crawlId, g.name, g.pages, html);
    if (found.length > 0) templates[g.name] = found;
  }
  return { version: 1, scored, checks: counted, templates };
}

/** HTML pages of the crawl (internal, answering 2xx with HTML, challenge pages and meta-refresh stubs aside: what the page checks judge), in all and per section. */
async function htmlPages(knex: Knex, crawlId: string): Promise<{ total: number; sections: Map<string, number> }> {
  // A meta-refresh stub answers 200 with HTML but is a redirect (redirect_url set): htmlPagesOf leaves it out.
  const rows = (await htmlPagesOf(knex, crawlId)
    .select('section')
    .count({ count: '*' })
    .groupBy('section')) as { section: string | null; count: string | number }[];
  const sections = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    total += Number(r.count);
    if (r.section !== null) sections.set(r.section, Number(r.count));
  }
  return { total, sections };
}

/** Distinct details read per check to find its most common causes: far above a template check's (a few values), enough for the others. */
const MAX_DETAILS = 10_000;
/** Details of a cause its examples are looked up among (bound values of one statement): the most common first. */
const EXAMPLE_VARIANTS = 200;

/**
 * The template decisions of check `name` (on `pages` distinct pages): its most common cause
 * (schema rules/template-patterns.ts `topCause`) on more than half of the site's HTML pages; else,
 * per section of SECTION_MIN_PAGES HTML pages or more, its most common cause there on more than
 * half of the section's. Each with the details most of those pages have and three example pages.
 */
async function templatesOf(knex: Knex, crawlId: string, name: string, pages: number, html: { total: number; sections: Map<string, number> }): Promise<StoredTemplate[]> {
  const site = mayBeTemplate(html.total, pages);
  let candidates = [...html.sections].filter(([, n]) => n >= SECTION_MIN_PAGES && pages * 2 > SECTION_MIN_PAGES);
  if (!site && candidates.length > 0) {
    // A section's decision needs the check on more than half of its HTML pages: its pages there,
    // HTML or not (an upper bound), counted first on the check's own rows, spare the read of
    // details that looks each occurrence's page up for every section that cannot hold one.
    const inSection = (await knex('crawl_issues').where({ crawl_id: crawlId, name }).select('section').countDistinct({ pages: 'url_hash' }).groupBy('section')) as { section: string | null; pages: string | number }[];
    const most = new Map(inSection.map((r) => [r.section, Number(r.pages)]));
    candidates = candidates.filter(([section, n]) => (most.get(section) ?? 0) * 2 > n);
  }
  if (!site && candidates.length === 0) return [];
  // Only occurrences on those HTML pages make a template: a 404 URL or a PDF is no page of it
  // (426 broken targets of one page read as "the site's template" otherwise). A correlated
  // EXISTS looks each issue's page up by its unique key; an IN over the crawl's pages would
  // build a million-entry list per check on a large crawl.
  const rows = (await knex('crawl_issues')
    .where({ crawl_id: crawlId, name })
    .modify((q) => {
      if (!site) q.whereIn('section', candidates.map(([section]) => section));
    })
    .whereExists(htmlPagesOf(knex, crawlId).whereRaw('crawl_pages.url_hash = crawl_issues.url_hash').select(knex.raw('1')))
    .select('section', 'details')
    .countDistinct({ pages: 'url_hash' })
    .groupBy('section', 'details')
    .orderBy([{ column: 'pages', order: 'desc' }, { column: 'details' }])
    .limit(MAX_DETAILS)) as { section: string | null; details: string; pages: string | number }[];
  const scope = checkScope(name as CheckName).scope;
  const found: { pattern: TemplatePattern | null; cause?: TopCause }[] = [];
  if (site) {
    const merged = new Map<string, number>();
    for (const r of rows) merged.set(r.details, (merged.get(r.details) ?? 0) + Number(r.pages));
    const top = topCause(scope, [...merged].map(([details, n]) => ({ details, pages: n })), pages);
    found.push({ pattern: top && templatePattern(html.total, top, []), cause: top ?? undefined });
  }
  if (!found[0]?.pattern) {
    found.length = 0;
    for (const [section, sectionPages] of candidates) {
      const own = rows.filter((r) => r.section === section).map((r) => ({ details: r.details, pages: Number(r.pages) }));
      const top = topCause(scope, own, sectionPages);
      const pattern = top && templatePattern(sectionPages, top, [], section);
      if (pattern) found.push({ pattern, cause: top! });
    }
    found.sort((a, b) => b.pattern!.pages - a.pattern!.pages || (a.pattern!.section! < b.pattern!.section! ? -1 : 1));
    found.splice(MAX_SECTION_PATTERNS);
  }
  const out: StoredTemplate[] = [];
  for (const { pattern, cause } of found) {
    if (!pattern || !cause) continue;
    // Examples from every page of the cause (its details with other counts too), the first found.
    const q = knex('crawl_issues').where({ crawl_id: crawlId, name }).whereIn('details', cause.variants.slice(0, EXAMPLE_VARIANTS));
    if (pattern.section !== null) q.andWhere({ section: pattern.section });
    const examples = (await q.orderBy('seq').limit(3).select('url')) as { url: string }[];
    const { details: _shown, ...kept } = pattern;
    out.push({ ...kept, examples: examples.map((e) => e.url), cause: causeRanges(cause) });
  }
  return out;
}
