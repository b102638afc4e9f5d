/**
 * What to fix, per check of the catalogue, in the report's language: one sentence a site owner can
 * act on, from the catalogue's guide (check-guide.ts, which docs/checks.md shows too). A name the
 * guide does not list gets its category's advice; accessibility findings point to the
 * axe rule's documentation. Shared by the reports (PDF, workbook) and the recommendations read of
 * the server and the mock.
 */
import type { Language } from '../errors.js';
import { CHECK_GUIDE, type CheckGuide } from './check-guide.js';

/**
 * Accessibility findings are named after their axe-core rule (`a11y_image-alt`), a set that grows
 * with axe releases, so they are not listed in the catalogue.
 */
export const ACCESSIBILITY_PREFIX = 'a11y_';

type Advice = [en: string, fr: string];


const CATEGORY_FIXES: Record<string, Advice> = {
  http: ['Make every URL answer 200 directly.', 'Faites répondre chaque URL en 200 directement.'],
  indexability: ['Make sure pages meant for search are indexable and linked.', 'Assurez-vous que les pages destinées à la recherche sont indexables et liées.'],
  canonicals: ['Point canonicals at indexable pages answering 200.', 'Faites pointer les canoniques vers des pages indexables répondant 200.'],
  robots_sitemaps: ['Keep robots.txt and sitemaps reachable and accurate.', 'Gardez robots.txt et sitemaps accessibles et exacts.'],
  titles: ['Write a unique title and description per page.', 'Rédigez un titre et une description uniques par page.'],
  content: ['Give each page substantial, unique, well-structured content.', 'Donnez à chaque page un contenu substantiel, unique et bien structuré.'],
  links_images: ['Tidy links and image attributes.', 'Soignez les liens et les attributs des images.'],
  international: ['Make hreflang annotations reciprocal and valid.', 'Rendez les annotations hreflang réciproques et valides.'],
  performance_security: ['Speed up responses and harden HTTPS.', 'Accélérez les réponses et renforcez HTTPS.'],
  structured_data: ['Publish valid structured data and social tags.', 'Publiez des données structurées et balises sociales valides.'],
  ai_reachability: ['Let AI search agents read the site.', 'Laissez les agents de recherche IA lire le site.'],
  accessibility: ['Fix the elements reported by the accessibility rule.', 'Corrigez les éléments signalés par la règle d’accessibilité.'],
};

/** Advice for a scorecard axis that is not a category (Search Console, PageSpeed). */
const AXIS_FIXES: Record<string, Advice> = {
  ctr: ['Pages get fewer clicks than their positions should bring: rewrite titles and descriptions, add structured data for rich results.', 'Les pages reçoivent moins de clics que leurs positions ne le permettent : réécrivez titres et descriptions, ajoutez des données structurées pour les résultats enrichis.'],
  trend: ['Impressions are falling compared with the previous 28 days: check lost rankings, deindexed pages and seasonality.', 'Les impressions baissent par rapport aux 28 jours précédents : vérifiez les positions perdues, les pages désindexées et la saisonnalité.'],
  pagespeed: ['Improve Lighthouse performance: lighter images and scripts, server caching, fewer render-blocking resources.', 'Améliorez la performance Lighthouse : images et scripts plus légers, cache serveur, moins de ressources bloquantes.'],
};

const index = (language: Language) => (language === 'en' ? 0 : 1);

/** What to do about a check that fired. */
export function fixFor(
  name: string,
  category: string,
  language: Language,
  /** For an accessibility finding, axe's statement of the rule in `language` (the server reads it from axe-core), if known. */
  ruleDescription?: string | null,
): string {
  const own = guideOf(name);
  if (own) return own.fix[language];
  if (name.startsWith(ACCESSIBILITY_PREFIX)) {
    const rule = name.slice(ACCESSIBILITY_PREFIX.length);
    const what = ruleDescription;
    return language === 'en'
      ? `${what ? `${what}: fix` : 'Fix'} the elements flagged by the axe rule "${rule}" (dequeuniversity.com/rules/axe/${rule}).`
      : `${what ? `${what} : corrigez` : 'Corrigez'} les éléments signalés par la règle axe « ${rule} » (dequeuniversity.com/rules/axe/${rule}).`;
  }
  const general = CATEGORY_FIXES[category];
  return general ? general[index(language)] : language === 'en' ? 'Review the affected pages.' : 'Examinez les pages concernées.';
}

/** The catalogue's guide to check `name` (check-guide.ts), or undefined for a name it does not list. */
function guideOf(name: string): CheckGuide | undefined {
  return Object.hasOwn(CHECK_GUIDE, name) ? CHECK_GUIDE[name as keyof typeof CHECK_GUIDE] : undefined;
}

/** Why a check of the catalogue matters, in `language`; undefined for a name it does not list. */
export function whyFor(name: string, language: Language): string | undefined {
  return guideOf(name)?.why[language];
}

/** What to do about a low scorecard axis that has no check of its own; undefined for category axes. */
export function axisFix(key: string, language: Language): string | undefined {
  return AXIS_FIXES[key]?.[index(language)];
}
