/**
 * Human labels of the machine values a report shows (check names, categories, statuses, pillars,
 * reasons), in the report's language. One table for both renderers: the PDF and the XLSX say the
 * same thing. A value this table does not know is made readable (`some_code` → "Some code")
 * rather than printed raw.
 */
import { axeRuleHelp } from '../rendering/axe-locale.js';
import { ACCESSIBILITY_PREFIX, catalogueLabel } from './catalogue.js';
import type { ExportLanguage } from './types.js';

type Bilingual = Record<ExportLanguage, string>;
type Table = Record<string, Bilingual>;

const CATEGORIES: Table = {
  http: { en: 'HTTP and redirects', fr: 'HTTP et redirections' },
  indexability: { en: 'Indexability', fr: 'Indexabilité' },
  canonicals: { en: 'Canonical URLs', fr: 'URL canoniques' },
  robots_sitemaps: { en: 'robots.txt and sitemaps', fr: 'robots.txt et sitemaps' },
  titles: { en: 'Titles and descriptions', fr: 'Titres et descriptions' },
  content: { en: 'Content', fr: 'Contenu' },
  links_images: { en: 'Links and images', fr: 'Liens et images' },
  international: { en: 'International (hreflang)', fr: 'International (hreflang)' },
  performance_security: { en: 'Performance and security', fr: 'Performance et sécurité' },
  structured_data: { en: 'Structured data and social', fr: 'Données structurées et réseaux sociaux' },
  ai_reachability: { en: 'Reachability by AI agents', fr: 'Accessibilité aux agents IA' },
  accessibility: { en: 'Accessibility', fr: 'Accessibilité' },
};

const SEVERITIES: Table = {
  error: { en: 'Error', fr: 'Erreur' },
  warning: { en: 'Warning', fr: 'Avertissement' },
  info: { en: 'Notice', fr: 'Information' },
};

const CRAWL_STATUSES: Table = {
  queued: { en: 'Queued', fr: 'En attente' },
  running: { en: 'Running', fr: 'En cours' },
  completed: { en: 'Completed', fr: 'Terminé' },
  failed: { en: 'Failed', fr: 'Échoué' },
  stopped: { en: 'Stopped', fr: 'Arrêté' },
};

const PAGESPEED_STATUSES: Table = {
  not_requested: { en: 'Not requested', fr: 'Non demandé' },
  unconfigured: { en: 'Not configured', fr: 'Non configuré' },
  not_run: { en: 'Not run', fr: 'Non exécuté' },
  pending: { en: 'Pending', fr: 'En attente' },
  measured: { en: 'Measured', fr: 'Mesuré' },
  failed: { en: 'Failed', fr: 'Échec' },
};

/** Why PageSpeed measured nothing (the step's skip reason). */
const PAGESPEED_SKIPS: Table = {
  not_requested: { en: 'Not requested for this audit.', fr: 'Non demandé pour cet audit.' },
  no_provider: { en: 'No measurement service was available.', fr: 'Aucun service de mesure n’était disponible.' },
  no_page_to_measure: { en: 'No page could be measured.', fr: 'Aucune page ne pouvait être mesurée.' },
  crawl_failed: { en: 'The crawl failed before it could be measured.', fr: 'Le crawl a échoué avant de pouvoir être mesuré.' },
  crawl_stopped: { en: 'The crawl was stopped before it could be measured.', fr: 'Le crawl a été arrêté avant de pouvoir être mesuré.' },
};

const PROVIDERS: Table = {
  lighthouse: { en: 'Lighthouse', fr: 'Lighthouse' },
  pagespeed_insights: { en: 'PageSpeed Insights', fr: 'PageSpeed Insights' },
};

/** A page that gave no HTTP answer, by cause. */
const PAGE_ERRORS: Table = {
  timeout: { en: 'Timeout', fr: 'Délai dépassé' },
  dns: { en: 'DNS failure', fr: 'Échec DNS' },
  connection: { en: 'Connection failed', fr: 'Connexion impossible' },
  tls: { en: 'TLS error', fr: 'Erreur TLS' },
  address_refused: { en: 'Address refused', fr: 'Adresse refusée' },
  aborted: { en: 'Interrupted', fr: 'Interrompu' },
  protocol: { en: 'Protocol error', fr: 'Erreur de protocole' },
  blocked_by_robots: { en: 'Blocked by robots.txt', fr: 'Bloquée par robots.txt' },
  redirect_loop: { en: 'Redirect loop', fr: 'Boucle de redirections' },
  too_many_redirects: { en: 'Too many redirects', fr: 'Trop de redirections' },
  invalid_redirect: { en: 'Invalid redirect', fr: 'Redirection invalide' },
  protection: { en: 'Firewall or interstitial', fr: 'Pare-feu ou page intermédiaire' },
};

const PILLARS: Table = {
  technique: { en: 'Technical', fr: 'Technique' },
  contenu: { en: 'Content and GEO', fr: 'Contenu et GEO' },
  accessibilite: { en: 'Accessibility', fr: 'Accessibilité' },
  acquisition: { en: 'Search Console acquisition', fr: 'Acquisition Search Console' },
  logs: { en: 'Log exploration', fr: 'Exploration des logs' },
};

const PILLAR_STATUSES: Table = {
  measured: { en: 'Measured', fr: 'Mesuré' },
  not_measured: { en: 'Not measured', fr: 'Non mesuré' },
  unavailable: { en: 'Unavailable', fr: 'Indisponible' },
};

/** Scorecard axes that are not categories. */
const AXES: Table = {
  pagespeed: { en: 'PageSpeed', fr: 'PageSpeed' },
  content_checks: { en: 'Content and GEO checks', fr: 'Vérifications de contenu et GEO' },
  axe_fetched_html: { en: 'Rules on the fetched HTML', fr: 'Règles sur le HTML reçu' },
  axe_rendered: { en: 'Rules on the rendered page', fr: 'Règles sur la page rendue' },
  ctr: { en: 'Clicks for the positions held', fr: 'Clics au regard des positions' },
  trend: { en: 'Impressions trend', fr: 'Tendance des impressions' },
  indexable_hits: { en: 'Bot hits on indexable 200 pages', fr: 'Passages de robots sur des pages indexables en 200' },
  coverage: { en: 'Indexable pages visited by bots', fr: 'Pages indexables visitées par les robots' },
  waste: { en: 'Budget not spent on errors and redirects', fr: 'Budget non dépensé en erreurs et redirections' },
  freshness: { en: 'Freshness of the last visit to key pages', fr: 'Fraîcheur du dernier passage sur les pages clés' },
};

/** Why a pillar has no score (`blocked_reason`); `crawl_blocked:<reason>` is handled apart. */
const BLOCKED_REASONS: Table = {
  no_completed_crawl: { en: 'No completed crawl yet.', fr: 'Aucun crawl terminé pour l’instant.' },
  no_internal_page: { en: 'The crawl found no internal page to score.', fr: 'Le crawl n’a trouvé aucune page interne à noter.' },
  crawl_blocked: { en: 'The crawl was blocked.', fr: 'Le crawl a été bloqué.' },
  ai_reachability_not_checked: {
    en: 'Reachability by AI agents was not part of this audit.',
    fr: 'L’accessibilité aux agents IA ne faisait pas partie de cet audit.',
  },
  accessibility_not_checked: {
    en: 'The accessibility rules were not part of this audit.',
    fr: 'Les règles d’accessibilité ne faisaient pas partie de cet audit.',
  },
  search_console_not_in_plan: { en: 'Search Console is not included in the plan.', fr: 'Search Console n’est pas inclus dans l’offre.' },
  search_console_not_linked: { en: 'No Search Console property is linked.', fr: 'Aucune propriété Search Console n’est liée.' },
  search_console_no_data: { en: 'Search Console has not been synchronised yet.', fr: 'Search Console n’a pas encore été synchronisé.' },
  search_console_sync_unavailable: { en: 'This server does not synchronise Search Console.', fr: 'Ce serveur ne synchronise pas Search Console.' },
  search_console_no_impressions: { en: 'Search Console reports no impression.', fr: 'Search Console ne rapporte aucune impression.' },
  log_exploration_unavailable: { en: 'Log exploration is not available.', fr: 'L’exploration des logs n’est pas disponible.' },
  no_logs: { en: 'No access log has been imported.', fr: 'Aucun log d’accès n’a été importé.' },
  no_recent_logs: { en: 'No imported log covers the last 30 days.', fr: 'Aucun log importé ne couvre les 30 derniers jours.' },
  no_bot_hits: { en: 'The imported logs hold no verified bot hit.', fr: 'Les logs importés ne contiennent aucun passage de robot vérifié.' },
};

/** Who fetched a URL (docs/decisions/logs.md): bot families, and humans in the per-day counts. */
const BOT_FAMILIES: Table = {
  googlebot: { en: 'Googlebot (desktop)', fr: 'Googlebot (ordinateur)' },
  googlebot_smartphone: { en: 'Googlebot Smartphone', fr: 'Googlebot Smartphone' },
  googlebot_image: { en: 'Googlebot Image', fr: 'Googlebot Image' },
  googlebot_video: { en: 'Googlebot Video', fr: 'Googlebot Vidéo' },
  googlebot_news: { en: 'Googlebot News', fr: 'Googlebot Actualités' },
  google_other: { en: 'Other Google agents', fr: 'Autres agents Google' },
  bingbot: { en: 'Bingbot', fr: 'Bingbot' },
  applebot: { en: 'Applebot', fr: 'Applebot' },
  yandexbot: { en: 'YandexBot', fr: 'YandexBot' },
  baiduspider: { en: 'Baiduspider', fr: 'Baiduspider' },
  ai_search: { en: 'AI search and answer agents', fr: 'Agents IA de recherche et de réponse' },
  ai_training: { en: 'AI training crawlers', fr: 'Robots IA d’entraînement' },
  duckduckbot: { en: 'DuckDuckBot', fr: 'DuckDuckBot' },
  other_search_engine: { en: 'Other search engines', fr: 'Autres moteurs de recherche' },
  seo_tool: { en: 'SEO tools', fr: 'Outils SEO' },
  social_preview: { en: 'Social link previews', fr: 'Aperçus de liens sociaux' },
  siteaudit: { en: 'Site Audit crawler (ours)', fr: 'Robot Site Audit (le nôtre)' },
  human: { en: 'Humans', fr: 'Humains' },
};

const VERIFICATIONS: Table = {
  verified: { en: 'Verified', fr: 'Vérifié' },
  unverified: { en: 'Claim not verified', fr: 'Déclaration non vérifiée' },
  not_applicable: { en: 'Nothing to verify', fr: 'Sans vérification possible' },
};

/** Where bot hits went, by what the crawl says of the URL (LogInsights.budget). */
const BUDGET_BUCKETS: Table = {
  indexable: { en: 'Indexable pages (2xx)', fr: 'Pages indexables (2xx)' },
  redirect: { en: 'Redirects (3xx)', fr: 'Redirections (3xx)' },
  client_error: { en: 'Client errors (4xx)', fr: 'Erreurs client (4xx)' },
  server_error: { en: 'Server errors (5xx)', fr: 'Erreurs serveur (5xx)' },
  non_canonical: { en: 'Non-canonical URLs', fr: 'URL non canoniques' },
  noindex: { en: 'Pages marked noindex', fr: 'Pages en noindex' },
  parameterised: { en: 'URLs with parameters', fr: 'URL avec paramètres' },
  robots_disallowed: { en: 'Blocked by robots.txt', fr: 'Bloquées par robots.txt' },
  not_in_crawl: { en: 'URLs the crawl did not find', fr: 'URL absentes du crawl' },
};

const STATUS_CLASSES: Table = {
  other: { en: 'Other', fr: 'Autre' },
};

const SAMPLE_ROLES: Table = {
  home: { en: 'Home page', fr: 'Page d’accueil' },
  category: { en: 'Category page', fr: 'Page catégorie' },
};

/** `some_code` → "Some code": the last resort, so no report prints a bare identifier. */
export function humanize(code: string): string {
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : code;
}

export interface ReportLabels {
  check(name: string): string;
  category(key: string): string;
  severity(key: string): string;
  crawlStatus(key: string): string;
  pagespeedStatus(key: string): string;
  pagespeedSkip(key: string): string;
  provider(key: string): string;
  pageError(key: string): string;
  pillar(key: string): string;
  pillarStatus(key: string): string;
  axis(key: string): string;
  blockedReason(key: string): string;
  sampleRole(key: string): string;
  botFamily(key: string): string;
  verification(key: string): string;
  budgetBucket(key: string): string;
  /** `2xx`… as they are; `other` in words. */
  statusClass(key: string): string;
}

/**
 * The labels of one language. `override` (an embedder's own catalogue) is asked first for check
 * names; then the issue catalogue; accessibility findings read "Accessibility: <axe's statement of
 * the rule>" in the report's language (axe-core's own translation), or the rule's id when axe does
 * not know it.
 */
/** An axe rule as a reader knows it: axe's statement of it, else its id. */
function axeRule(rule: string, language: ExportLanguage): string {
  return axeRuleHelp(rule, language) ?? rule;
}

export function reportLabels(language: ExportLanguage, override?: (name: string) => string): ReportLabels {
  const from = (table: Table) => (key: string) => table[key]?.[language] ?? humanize(key);
  const checks = new Map<string, string>();
  const accessibility = CATEGORIES.accessibility[language];
  const sep = language === 'fr' ? ' : ' : ': ';
  return {
    check(name) {
      let label = checks.get(name);
      if (label === undefined) {
        const given = override?.(name);
        label =
          (given && given !== name ? given : undefined) ??
          catalogueLabel(name, language) ??
          (name.startsWith(ACCESSIBILITY_PREFIX) ? `${accessibility}${sep}${axeRule(name.slice(ACCESSIBILITY_PREFIX.length), language)}` : humanize(name));
        // Names come from a small catalogue; the cap only guards against a runaway source.
        if (checks.size < 10_000) checks.set(name, label);
      }
      return label;
    },
    category: from(CATEGORIES),
    severity: from(SEVERITIES),
    crawlStatus: from(CRAWL_STATUSES),
    pagespeedStatus: from(PAGESPEED_STATUSES),
    pagespeedSkip: from(PAGESPEED_SKIPS),
    provider: from(PROVIDERS),
    pageError: from(PAGE_ERRORS),
    pillar: from(PILLARS),
    pillarStatus: from(PILLAR_STATUSES),
    axis: (key) => AXES[key]?.[language] ?? CATEGORIES[key]?.[language] ?? humanize(key),
    blockedReason(key) {
      const [head, detail] = key.split(/:(.*)/s);
      if (head === 'crawl_blocked' && detail) return `${BLOCKED_REASONS.crawl_blocked[language]} (${humanize(detail)})`;
      return BLOCKED_REASONS[key]?.[language] ?? humanize(key);
    },
    sampleRole: from(SAMPLE_ROLES),
    botFamily: from(BOT_FAMILIES),
    verification: from(VERIFICATIONS),
    budgetBucket: from(BUDGET_BUCKETS),
    statusClass: (key) => STATUS_CLASSES[key]?.[language] ?? key,
  };
}
