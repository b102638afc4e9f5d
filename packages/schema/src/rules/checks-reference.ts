/**
 * The check catalogue as a reference: one row per check, in the catalogue's order, with what it
 * finds, why it matters and how to fix it. docs/checks.md (scripts/checks-doc.ts) and the server's
 * GET /docs/checks page are both rendered from these rows, so they cannot disagree with the
 * crawler's catalogue.
 */
import type { Severity } from '../common.js';
import { CHECK_GUIDE } from './check-guide.js';
import { CHECKS, type CheckCategory, type CheckName } from './issue-catalogue.js';
import { checkScope } from './check-scopes.js';
import { MAX_SECTION_PATTERNS, SECTION_MIN_PAGES, TEMPLATE_MIN_PAGES } from './template-patterns.js';

export interface CheckReferenceRow {
  name: CheckName;
  severity: Severity;
  category: CheckCategory;
  /** Reported once for the site rather than per page. */
  site: boolean;
  /** Judges any internal URL (its share is of every scored URL), not an HTML page's content. */
  url: boolean;
  what: { fr: string; en: string };
  why: { fr: string; en: string };
  fix: { fr: string; en: string };
}

export const CATEGORY_TITLES: Record<CheckCategory, { fr: string; en: string }> = {
  http: { en: 'HTTP, redirects and URLs', fr: 'HTTP, redirections et URL' },
  indexability: { en: 'Indexability and robots', fr: 'Indexabilité et robots' },
  canonicals: { en: 'Canonicals', fr: 'Canoniques' },
  robots_sitemaps: { en: 'robots.txt and sitemaps', fr: 'robots.txt et sitemaps' },
  titles: { en: 'Titles and descriptions', fr: 'Titres et descriptions' },
  content: { en: 'Content', fr: 'Contenu' },
  links_images: { en: 'Links and images', fr: 'Liens et images' },
  international: { en: 'International', fr: 'International' },
  performance_security: { en: 'Performance and security', fr: 'Performance et sécurité' },
  structured_data: { en: 'Structured data and social', fr: 'Données structurées et réseaux sociaux' },
  ai_reachability: { en: 'AI reachability', fr: 'Accessibilité aux IA' },
  accessibility: { en: 'Accessibility', fr: 'Accessibilité' },
};

export function checkReference(): CheckReferenceRow[] {
  return (Object.keys(CHECKS) as CheckName[]).map((name) => {
    const def = CHECKS[name] as (typeof CHECKS)[CheckName] & { basis?: 'site' | 'url' };
    return { name, severity: def.severity, category: def.category, site: def.basis === 'site', url: def.basis === 'url', what: def.label, why: CHECK_GUIDE[name].why, fix: CHECK_GUIDE[name].fix };
  });
}

/** docs/checks.md: the catalogue grouped by category, in English with the French below each text. */
export function checksMarkdown(): string {
  const rows = checkReference();
  const lines = [
    '# The audit checks',
    '',
    '<!-- Generated from the catalogue (packages/schema/src/rules: issue-catalogue.ts, check-guide.ts, check-thresholds.ts) by `npm run docs:checks`. Do not edit by hand. -->',
    '',
    `${rows.length} checks, plus the axe-core accessibility rules (\`a11y_<rule>\`, with check_accessibility: impact critical → error, serious → warning, moderate and minor → info). ` +
      'Severities: **error**, **warning**, **info** (info never lowers the health score, docs/health-score.md). Checks marked *site* are reported once for the whole site; ' +
      'checks marked *URL* judge any internal URL the crawl recorded (its status, its redirects, its robots.txt or sitemap entry, its links in), and the score takes their share of every scored URL; ' +
      'the others judge the content of an HTML page answering 2xx, and the score takes their share of those pages. ' +
      'Each check: what it finds, why it matters, how to fix it (English, then French).',
    '',
  ];
  const categories = [...new Set(rows.map((r) => r.category))];
  for (const category of categories) {
    lines.push(`## ${CATEGORY_TITLES[category].en}`, '', '| Check | Severity | What | Why it matters | How to fix |', '| --- | --- | --- | --- | --- |');
    for (const r of rows.filter((x) => x.category === category)) {
      const cell = (t: { fr: string; en: string }) => `${md(t.en)}<br>*${md(t.fr)}*`;
      lines.push(`| \`${r.name}\`${r.site ? ' (site)' : r.url ? ' (URL)' : ''} | ${r.severity} | ${cell(r.what)} | ${cell(r.why)} | ${cell(r.fix)} |`);
    }
    lines.push('');
  }
  lines.push(...scopeSection(rows));
  return `${lines.join('\n').trimEnd()}\n`;
}

/** docs/checks.md's "Scope" section: per check, what it judges, what one finding is, its limits, and why it may be on most pages. */
function scopeSection(rows: CheckReferenceRow[]): string[] {
  const lines = [
    '## Scope: what one finding is, and limits',
    '',
    '<!-- From packages/schema/src/rules/check-scopes.ts. -->',
    '',
    'Scopes: **page** (the page itself: one finding per page, whatever the number of elements at fault, which the details count and sample), ' +
      '**link** (one per page and target), **resource** (one per page and resource it loads), **group** (pages sharing a value: one per page of the group), ' +
      '**site** (one for the site). Every limit below is reported when reached (in the details, `html_too_large`, `resource_budget_reached`, or "at least").',
    '',
    `**Template decisions.** A check on more than half of a site's (or a section's) HTML pages for one cause (the same missing tag, the same header image, canonicals to the same host) is one decision of the site's template (HTML pages: internal, answering 2xx, meta-refresh stubs aside, which are redirects). ` +
      'One cause is read from the details: counts aside (`14 image(s)` and `9 image(s)` of the same images agree), and for a check about the page itself the paths of the URLs it names aside (canonicals to `https://www.sqlite.org/a.html` and `/b.html` agree); a link\'s or a resource\'s target stays whole (two broken targets are two causes). ' +
      `The issue summary (\`GET /v1/crawls/{crawl}/issues/summary\`) says so on that check's group: \`templates\` gives the page count, the share, the shared details and three example pages (sites of ${TEMPLATE_MIN_PAGES} HTML pages or more). ` +
      `When the check is not most of the site's pages, each section (first path folder, \`/docs/\`; \`/\` for the pages at the root) of ${SECTION_MIN_PAGES} HTML pages or more where one cause is on more than half of its pages is one decision of that section (up to ${MAX_SECTION_PATTERNS}, the most pages first). ` +
      'The occurrences stay listed page by page (`GET /v1/crawls/{crawl}/issues?name=…`), so each page can still be fixed and followed. ' +
      'The health score counts each check once, by the share of pages it is on, so a template decision costs at most its severity\'s weight (docs/health-score.md).',
    '',
    '| Check | Scope | One finding | Limit | When on most pages of a site |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const s = checkScope(r.name);
    lines.push(`| \`${r.name}\` | ${s.scope} | ${md(s.unit)} | ${s.cap ? md(s.cap) : '—'} | ${s.frequent ? md(s.frequent) : '—'} |`);
  }
  lines.push('');
  return lines;
}

/** Table-cell text: pipes escaped, angle brackets as entities (`<title>` is text here, not HTML). */
function md(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
