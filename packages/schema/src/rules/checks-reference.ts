/**
 * The check catalogue as a reference: one row per check, in the catalogue's order, with what it
 * finds, why it matters and how to fix it. docs/checks.md (scripts/checks-doc.ts) and the server's
 * GET /docs/checks page are both rendered from these rows, so they cannot disagree with the
 * crawler's catalogue.
 */
import type { Severity } from '../common.js';
import { CHECK_GUIDE } from './check-guide.js';
import { CHECKS, type CheckCategory, type CheckName } from './issue-catalogue.js';

export interface CheckReferenceRow {
  name: CheckName;
  severity: Severity;
  category: CheckCategory;
  /** Reported once for the site rather than per page. */
  site: boolean;
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
    const def = CHECKS[name] as (typeof CHECKS)[CheckName] & { scope?: 'site' };
    return { name, severity: def.severity, category: def.category, site: def.scope === 'site', what: def.label, why: CHECK_GUIDE[name].why, fix: CHECK_GUIDE[name].fix };
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
      'Severities: **error**, **warning**, **info** (info never lowers the health score, docs/health-score.md). Checks marked *site* are reported once for the whole site. ' +
      'Each check: what it finds, why it matters, how to fix it (English, then French).',
    '',
  ];
  const categories = [...new Set(rows.map((r) => r.category))];
  for (const category of categories) {
    lines.push(`## ${CATEGORY_TITLES[category].en}`, '', '| Check | Severity | What | Why it matters | How to fix |', '| --- | --- | --- | --- | --- |');
    for (const r of rows.filter((x) => x.category === category)) {
      const cell = (t: { fr: string; en: string }) => `${md(t.en)}<br>*${md(t.fr)}*`;
      lines.push(`| \`${r.name}\`${r.site ? ' (site)' : ''} | ${r.severity} | ${cell(r.what)} | ${cell(r.why)} | ${cell(r.fix)} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Table-cell text: pipes escaped, angle brackets as entities (`<title>` is text here, not HTML). */
function md(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
