import { SEVERITY_RANK as CATALOGUE_SEVERITY_RANK } from '@siteaudit/schema/rules';
import type { ExportLanguage } from './types.js';

type Severity = 'error' | 'warning' | 'info';

export interface ExportStrings {
  locale: string;
  reportTitle: string;
  generatedBy: string;
  project: string;
  url: string;
  domain: string;
  crawlId: string;
  crawlStatus: string;
  started: string;
  finished: string;
  notAvailable: string;
  healthSummary: string;
  healthScore: string;
  notMeasured: string;
  pagesCrawled: string;
  pagesDiscovered: string;
  pageBudget: string;
  severities: Record<Severity, string>;
  severity: string;
  strategy: string;
  pagespeedCombined: string;
  protectionOccurrences: string;
  protectionNote: string;
  byCategory: string;
  category: string;
  issue: string;
  label: string;
  occurrences: string;
  /** The fix list's columns: pages a check fires on, score points its fix would win. */
  pagesAffected: string;
  /** Beside the pages affected in the workbook: "whole site" for a site-wide check. */
  scope: string;
  scorePoints: string;
  /** Before the agency's name on the cover (export branding). */
  preparedBy: string;
  total: string;
  topIssues: string;
  /** Template decisions (the issue summary's `templates`): a check on most pages of the site or a section for one cause. */
  templateDecisions: string;
  templateNote: string;
  /** Where a template decision holds: the whole site, or a section (`/docs/`). */
  templateScope: (section: string | null) => string;
  /** Its pages and their share of the scope's HTML pages. */
  templatePages: (pages: string, share: string) => string;
  share: string;
  examples: string;
  noIssues: string;
  moreOccurrences: (n: string) => string;
  pages: string;
  noPages: string;
  pagesShown: (shown: string, total: string) => string;
  status: string;
  title: string;
  words: string;
  responseTime: string;
  responseTimeShort: string;
  pageNumber: (n: number) => string;
  pagespeed: string;
  pagespeedNotMeasured: string;
  mobile: string;
  desktop: string;
  combined: string;
  score: string;
  pagesMeasured: string;
  pagesFailed: string;
  allRefused: string;
  provider: string;
  measuredAt: string;
  failed: string;
  sample: string;
  role: string;
  error: string;
  note: string;
  field: string;
  value: string;
  details: string;
  errorType: string;
  contentType: string;
  internal: string;
  depth: string;
  metaDescription: string;
  h1: string;
  canonical: string;
  redirectTarget: string;
  sizeBytes: string;
  internalLinks: string;
  externalLinks: string;
  images: string;
  imagesWithoutAlt: string;
  pagespeedStatus: string;
  truncatedAtExcelLimit: string;
  site: string;
  auditDate: string;
  preparedWith: string;
  scorecard: string;
  scorecardIntro: string;
  scorecardMissing: string;
  asOf: (date: string) => string;
  whatToFix: string;
  whyItMatters: string;
  noFailingCheck: string;
  moreChecks: (n: string) => string;
  occurrenceCount: (count: number, formatted: string) => string;
  chartByCategory: string;
  chartHistory: string;
  historyFirst: string;
  historyNote: string;
  /** Worksheet names of the workbook. */
  sheets: { summary: string; issues: string; pages: string; pagespeed: string; changes: string; logs: string; logUrls: string; logDays: string; scorecard: string };
  /** The log section and sheets (docs/decisions/exports.md#the-log-section). */
  logs: {
    title: string;
    period: (from: string, to: string, imports: number, formatted: string) => string;
    noCrawl: string;
    botHits: string;
    unverifiedClaims: string;
    humanHits: string;
    byFamily: string;
    family: string;
    verification: string;
    hits: string;
    urls: string;
    lastVisit: string;
    axis: string;
    budget: string;
    budgetNote: string;
    spentOn: string;
    share: string;
    notInCrawl: (n: string) => string;
    notVisited: (n: string) => string;
    none: string;
    ai: string;
    aiUrls: string;
    aiLastVisit: string;
    topUrls: (n: string) => string;
    families: string;
    statusCodes: string;
    bytes: string;
    day: string;
    statusClass: string;
    finding: string;
    imports: string;
    covered: string;
  };
  /** The "since the last crawl" section and the changes sheet (docs/decisions/crawl-changes.md). */
  changes: {
    title: string;
    comparedWith: (date: string) => string;
    /** Under the page counts: a deleted page that is still linked is not a page removed. */
    pagesNote: string;
    noPrevious: string;
    blocked: string;
    notCompared: string;
    issuePairs: string;
    /** Under the page counts, when a redirect changed: a page turned into a stub keeps its status. */
    redirectNote: string;
    /** A redirect change's targets, before and now (null: no redirect), in the workbook's Details. */
    redirectTargets: (before: string | null, now: string | null) => string;
    kinds: Record<'issue_new' | 'issue_fixed' | 'issue_gone_with_page' | 'issue_persisting' | 'page_added' | 'page_removed' | 'status_changed' | 'redirect_changed', string>;
    pillar: string;
    previous: string;
    current: string;
    delta: string;
    checksHeading: string;
    newCount: string;
    fixedCount: string;
    goneCount: string;
    kind: string;
    previousStatus: string;
    noChange: string;
    /** Why each pillar's score moved (docs/decisions/crawl-changes.md, "Why the score moved"). */
    movement: {
      heading: string;
      /** Under the heading: how the points are computed and add up. */
      explained: string;
      /** "Technical 37 → 52 (exactly 36.6 → 51.9)". */
      pillar: (pillar: string, previous: string, current: string, previousExact: string, currentExact: string) => string;
      points: string;
      check: string;
      what: string;
      /** What happened to a check between the crawls, with its pages then and now. */
      fixed: (before: string) => string;
      added: (now: string) => string;
      fewer: (before: string, now: string) => string;
      more: (before: string, now: string) => string;
      share: (pages: string) => string;
      otherChecks: (n: string) => string;
      /** A check's pages: "1 page", "70 pages". */
      pages: (n: string, plural: boolean) => string;
      notFromChecks: string;
      rounding: string;
      total: string;
      unexplained: string;
    };
  };
  /** Under the cover's gauge: what its score is. */
  healthScoreIs: (pillar: string) => string;
  /** Pillars without a score, listed in one line instead of a section each. */
  pillarsWithoutScore: string;
  /** How a crawl pillar's score follows from its axes (docs/health-score.md). */
  scoreFromAxes: string;
  /** The inputs of a pillar's score (the scorecard's `computation`, axes and checks). */
  inputs: {
    axis: string;
    score: string;
    factor: string;
    weight: string;
    /** Under a product pillar's table: what the shares are of. */
    scoredPages: (urls: string, html: string) => string;
    /** One check behind an axis: its share of the pages and its cost. */
    check: (label: string, severity: string, share: string, weight: string, sqrtShare: string, cost: string) => string;
    /** A site-wide check's share. */
    wholeSite: string;
    pagesOf: (pages: string, total: string) => string;
    otherChecks: (n: string, cost: string) => string;
    pagespeed: (combined: string) => string;
    /** The recomputation: "100 × … = exact → score". */
    product: (factors: string, exact: string, score: string) => string;
    mean: (terms: string, exact: string, score: string) => string;
    meanFormula: string;
    /** Workbook columns of the scorecard sheet. */
    exact: string;
    method: string;
    methods: Record<'product' | 'weighted_mean', string>;
    scoredPagesHeader: string;
    htmlPagesHeader: string;
    judgedPagesHeader: string;
    axisScore: string;
    share: string;
    checkWeight: string;
    cost: string;
  };
}

/**
 * Whether a count takes the singular in `language` ("1 page", and in French "0 page" too). The
 * strings receive counts already formatted (`1,234`, `1 234`): their digits are the count.
 */
const singular = (language: 'en' | 'fr', formatted: string) => new Intl.PluralRules(language).select(Number(formatted.replace(/\D/g, ''))) === 'one';

const en: ExportStrings = {
  locale: 'en-GB',
  reportTitle: 'Site audit report',
  generatedBy: 'Site Audit API',
  project: 'Project',
  url: 'URL',
  domain: 'Domain',
  crawlId: 'Crawl',
  crawlStatus: 'Crawl status',
  started: 'Started (UTC)',
  finished: 'Finished (UTC)',
  notAvailable: '—',
  healthSummary: 'Health summary',
  healthScore: 'Health score',
  notMeasured: 'Not measured',
  pagesCrawled: 'Pages crawled',
  pagesDiscovered: 'Pages discovered',
  pageBudget: 'Page budget',
  severities: { error: 'Errors', warning: 'Warnings', info: 'Notices' },
  severity: 'Severity',
  strategy: 'Strategy',
  pagespeedCombined: 'PageSpeed (combined)',
  protectionOccurrences: 'Firewall or interstitial findings',
  protectionNote: 'Findings on firewall or interstitial pages are not counted as issues.',
  byCategory: 'Issues by severity and category',
  category: 'Category',
  issue: 'Issue',
  label: 'Label',
  occurrences: 'Occurrences',
  pagesAffected: 'Pages affected',
  scope: 'Scope',
  scorePoints: 'Score points',
  preparedBy: 'Prepared by',
  total: 'Total',
  topIssues: 'Top issues',
  templateDecisions: 'Template decisions',
  templateNote: 'A check on more than half of the HTML pages of the site, or of one section, for one cause is one decision of its template: fixed once in the template, it is fixed on every page. The pages stay listed one by one in the issues.',
  templateScope: (section) => (section === null ? 'whole site' : `section ${section}`),
  templatePages: (pages, share) => `${pages} ${singular('en', pages) ? 'page' : 'pages'} (${share})`,
  share: 'Share',
  examples: 'Examples',
  noIssues: 'No issues found.',
  moreOccurrences: (n) => `… and ${n} more`,
  pages: 'Pages',
  noPages: 'No pages crawled.',
  pagesShown: (shown, total) => `First ${shown} pages of ${total}. The Excel export lists every page.`,
  status: 'Status',
  title: 'Title',
  words: 'Words',
  responseTime: 'Response time (ms)',
  responseTimeShort: 'Time (ms)',
  pageNumber: (n) => `Page ${n}`,
  pagespeed: 'PageSpeed',
  pagespeedNotMeasured: 'not measured.',
  mobile: 'Mobile',
  desktop: 'Desktop',
  combined: 'Combined',
  score: 'Score',
  pagesMeasured: 'Pages measured',
  pagesFailed: 'Pages failed',
  allRefused: 'Every measurement was refused.',
  provider: 'Provider',
  measuredAt: 'Measured at (UTC)',
  failed: 'Failed',
  sample: 'Sample',
  role: 'Role',
  error: 'Error',
  note: 'Note',
  field: 'Field',
  value: 'Value',
  details: 'Details',
  errorType: 'Error type',
  contentType: 'Content type',
  internal: 'Internal',
  depth: 'Depth',
  metaDescription: 'Meta description',
  h1: 'H1',
  canonical: 'Canonical URL',
  redirectTarget: 'Redirects to',
  sizeBytes: 'Size (bytes)',
  internalLinks: 'Internal links',
  externalLinks: 'External links',
  images: 'Images',
  imagesWithoutAlt: 'Images without alt',
  pagespeedStatus: 'PageSpeed status',
  truncatedAtExcelLimit: 'Truncated: Excel sheets hold at most 1,048,576 rows.',
  site: 'Site',
  auditDate: 'Audit date',
  preparedWith: 'Prepared with Site Audit API',
  scorecard: 'Scorecard',
  scorecardIntro: 'Five pillars, each scored out of 100 on its own; there is no overall average. For each pillar, the checks that cost points and what to fix.',
  scorecardMissing: 'The scorecard was not available for this report.',
  asOf: (date) => `as of ${date}`,
  whatToFix: 'What to fix',
  whyItMatters: 'Why it matters',
  occurrenceCount: (count, n) => `${n} ${count === 1 ? 'occurrence' : 'occurrences'}`,
  noFailingCheck: 'No failing check.',
  moreChecks: (n) => `… and ${n} more ${singular('en', n) ? 'check' : 'checks'}, listed under Issues by severity and category.`,
  chartByCategory: 'Issues by category and severity',
  chartHistory: 'Health score over recent comparable crawls',
  historyFirst: 'First comparable crawl: the chart fills in with the next crawls run with the same settings.',
  historyNote: 'Comparable crawls ran with the same settings.',
  sheets: { summary: 'Summary', issues: 'Issues', pages: 'Pages', pagespeed: 'PageSpeed', changes: 'Changes', logs: 'Logs', logUrls: 'Log URLs', logDays: 'Log days', scorecard: 'Scorecard' },
  logs: {
    title: 'What bots crawl (access logs)',
    period: (from, to, n, count) => `Access logs from ${from} to ${to} (${count} ${n === 1 ? 'import' : 'imports'}), joined with the latest completed crawl. Unverified claims are kept apart and counted nowhere else.`,
    noCrawl: 'No completed crawl to join the logs with: the crawl budget and the findings need one.',
    botHits: 'Bot hits (verified, or nothing to verify)',
    unverifiedClaims: 'Unverified bot claims (kept apart)',
    humanHits: 'Human hits (counted, never stored one by one)',
    byFamily: 'Hits by bot family',
    family: 'Family',
    verification: 'Verification',
    hits: 'Hits',
    urls: 'URLs',
    lastVisit: 'Last visit (UTC)',
    axis: 'Axis',
    budget: 'Where the crawl budget goes',
    budgetNote: 'Bot hits by what the URL is; one hit can count in several rows.',
    spentOn: 'Spent on',
    share: 'Share',
    notInCrawl: (n) => `URLs bots fetch that the crawl did not find (${n})`,
    notVisited: (n) => `Indexable pages no bot visited (${n})`,
    none: 'None.',
    ai: 'AI crawlers',
    aiUrls: 'URLs fetched by AI agents',
    aiLastVisit: 'Last visit by an AI agent',
    topUrls: (n) => `Top ${n} URLs by bot hits`,
    families: 'Families',
    statusCodes: 'Status codes',
    bytes: 'Bytes',
    day: 'Day',
    statusClass: 'Status class',
    finding: 'Finding',
    imports: 'Imports',
    covered: 'Period covered (UTC)',
  },
  changes: {
    title: 'Since the last crawl',
    comparedWith: (date) =>
      `Compared with the previous crawl run with the same settings, finished ${date}. Each occurrence counts: a second broken link on a page is new. “Fixed” means the page is still there without the issue; “Gone with their page” means the page was removed, redirected, answers an error or is no longer indexable.`,
    noPrevious: 'First crawl with these settings: the next crawl of this campaign will be compared with this one.',
    blocked: 'The site blocked this crawl: it is not compared with the previous one.',
    notCompared: 'This crawl was not compared with an earlier one.',
    pagesNote:
      'A page deleted but still linked answers 404: it counts under “Status code changed”, and the links to it as new broken links. “Pages removed” are URLs this crawl no longer reached.',
    redirectNote:
      '“Redirect changed”: the same status, another redirect: a page that now sends its readers elsewhere (a meta-refresh stub answers 200), a redirect that points elsewhere, or a redirect that became a page again. What a page had when it became a redirect is “Gone with their page”.',
    redirectTargets: (before, now) => `${before ?? 'no redirect'} → ${now ?? 'no redirect'}`,
    issuePairs: 'Issue occurrences',
    kinds: {
      issue_new: 'New',
      issue_fixed: 'Fixed',
      issue_gone_with_page: 'Gone with their page',
      issue_persisting: 'Still there',
      page_added: 'Pages added',
      page_removed: 'Pages removed',
      status_changed: 'Status code changed',
      redirect_changed: 'Redirect changed',
    },
    pillar: 'Pillar',
    previous: 'Previous',
    current: 'Now',
    delta: 'Change',
    checksHeading: 'Checks that moved the most, most severe first',
    newCount: 'New',
    fixedCount: 'Fixed',
    goneCount: 'Gone with page',
    kind: 'Change',
    previousStatus: 'Previous status',
    noChange: 'Nothing changed.',
    movement: {
      heading: 'Why the score moved',
      explained:
        'Each check’s points are its exact share of the movement: a score is 100 × exp(−Σ costs), so the change of each check’s cost (weight × √share) moves it by a part that adds up to the whole. A check counts by the pages it is on, not by its occurrences: new occurrences on pages that already had it move no point. Points are rounded to tenths so that they add up to the exact movement; the last line is the rounding of the two published scores.',
      pillar: (pillar, previous, current, previousExact, currentExact) => `${pillar} ${previous} → ${current} (exactly ${previousExact} → ${currentExact})`,
      points: 'Points',
      check: 'Check',
      what: 'What changed',
      fixed: (before) => `fixed (was on ${before})`,
      added: (now) => `new (on ${now})`,
      fewer: (before, now) => `on fewer pages (${before} → ${now})`,
      more: (before, now) => `on more pages (${before} → ${now})`,
      share: (pages) => `same ${pages}, but the site’s page count changed`,
      otherChecks: (n) => `${n} other checks`,
      pages: (n, plural) => `${n} page${plural ? 's' : ''}`,
      notFromChecks: 'Not from a check (PageSpeed, or a score stored under earlier rules)',
      rounding: 'Rounding of the published scores',
      total: 'Total',
      unexplained: 'Not explained for this comparison (settled before scores were attributed).',
    },
  },
  healthScoreIs: (pillar) => `the score of the ${pillar} pillar`,
  pillarsWithoutScore: 'Without a score in this report',
  scoreFromAxes:
    'How the score is computed: each check that fired costs weight × √share, with weight 0.35 for an error, 0.12 for a warning and 0 for a notice, ' +
    'and share the part of the pages it judges that it fires on (of every internal URL for a check of statuses, redirects or sitemaps, of the HTML pages answering 2xx for a check of a page’s content, 1 for a site-wide check). An axis multiplies the score by exp(−Σ costs of its checks), its factor; ' +
    'the score is 100 × the product of the factors (PageSpeed, when measured, adds one), so it is not the average of the axes and never above the weakest one.',
  inputs: {
    axis: 'Axis',
    score: 'Score',
    factor: 'Factor',
    weight: 'Weight',
    scoredPages: (urls, html) => `Scored pages: ${urls} internal ${singular('en', urls) ? 'URL' : 'URLs'}, ${html} of them HTML ${singular('en', html) ? 'page' : 'pages'} answering 2xx.`,
    check: (label, severity, share, weight, sqrt, cost) => `${label} (${severity}, ${share}): ${weight} × √${sqrt} = ${cost}`,
    wholeSite: 'whole site',
    pagesOf: (pages, total) => `${pages} of ${total} ${singular('en', total) ? 'page' : 'pages'}`,
    otherChecks: (n, cost) => (singular('en', n) ? `${n} more check: ${cost}` : `${n} more checks: ${cost} together`),
    pagespeed: (combined) => `combined score ${combined}: exp(−0.35 × (1 − ${combined} / 100))`,
    // The factors are printed rounded (as in the table) and their product is not quite the exact score: say so.
    product: (factors, exact, score) => `Score = 100 × ${factors} = ${exact}, rounded to ${score} (computed with the exact factors; those shown are rounded to 3 decimals).`,
    mean: (terms, exact, score) => `Score = ${terms} = ${exact}, rounded to ${score}.`,
    meanFormula: 'The score is the weighted mean of the axes that have a score: Σ weight × score.',
    exact: 'Before rounding',
    method: 'How the axes combine',
    methods: { product: '100 × product of the factors', weighted_mean: 'Weighted mean' },
    scoredPagesHeader: 'Scored URLs',
    htmlPagesHeader: 'HTML pages (2xx)',
    judgedPagesHeader: 'Pages judged',
    axisScore: 'Axis score',
    share: 'Share',
    checkWeight: 'Check weight',
    cost: 'Cost',
  },
};

const fr: ExportStrings = {
  locale: 'fr-FR',
  reportTitle: "Rapport d'audit de site",
  generatedBy: 'Site Audit API',
  project: 'Projet',
  url: 'URL',
  domain: 'Domaine',
  crawlId: 'Crawl',
  crawlStatus: 'Statut du crawl',
  started: 'Début (UTC)',
  finished: 'Fin (UTC)',
  notAvailable: '—',
  healthSummary: 'Synthèse de santé',
  healthScore: 'Score de santé',
  notMeasured: 'Non mesuré',
  pagesCrawled: 'Pages explorées',
  pagesDiscovered: 'Pages découvertes',
  pageBudget: 'Budget de pages',
  severities: { error: 'Erreurs', warning: 'Avertissements', info: 'Informations' },
  severity: 'Gravité',
  strategy: 'Stratégie',
  pagespeedCombined: 'PageSpeed (combiné)',
  protectionOccurrences: 'Constats sur pare-feu ou page intermédiaire',
  protectionNote: 'Les constats sur des pages de pare-feu ou intermédiaires ne sont pas comptés comme problèmes.',
  byCategory: 'Problèmes par gravité et catégorie',
  category: 'Catégorie',
  issue: 'Problème',
  label: 'Libellé',
  pagesAffected: 'Pages touchées',
  scope: 'Portée',
  scorePoints: 'Points de score',
  preparedBy: 'Préparé par',
  occurrences: 'Occurrences',
  total: 'Total',
  topIssues: 'Principaux problèmes',
  templateDecisions: 'Décisions de modèle',
  templateNote: 'Un contrôle qui se déclenche pour une même cause sur plus de la moitié des pages HTML du site, ou d’une section, relève d’une décision de son modèle de page : corrigé une fois dans le modèle, il l’est sur toutes les pages. Les pages restent listées une à une dans les problèmes.',
  templateScope: (section) => (section === null ? 'tout le site' : `section ${section}`),
  templatePages: (pages, share) => `${pages} ${singular('fr', pages) ? 'page' : 'pages'} (${share})`,
  share: 'Part',
  examples: 'Exemples',
  noIssues: 'Aucun problème détecté.',
  moreOccurrences: (n) => `… et ${n} de plus`,
  pages: 'Pages',
  noPages: 'Aucune page explorée.',
  pagesShown: (shown, total) => `Les ${shown} premières pages sur ${total}. L'export Excel contient toutes les pages.`,
  status: 'Statut',
  title: 'Titre',
  words: 'Mots',
  responseTime: 'Temps de réponse (ms)',
  responseTimeShort: 'Temps (ms)',
  pageNumber: (n) => `Page ${n}`,
  pagespeed: 'PageSpeed',
  pagespeedNotMeasured: 'non mesuré.',
  mobile: 'Mobile',
  desktop: 'Ordinateur',
  combined: 'Combiné',
  score: 'Score',
  pagesMeasured: 'Pages mesurées',
  pagesFailed: 'Pages en échec',
  allRefused: 'Toutes les mesures ont été refusées.',
  provider: 'Fournisseur',
  measuredAt: 'Mesuré le (UTC)',
  failed: 'Échec',
  sample: 'Échantillon',
  role: 'Rôle',
  error: 'Erreur',
  note: 'Remarque',
  field: 'Champ',
  value: 'Valeur',
  details: 'Détails',
  errorType: "Type d'erreur",
  contentType: 'Type de contenu',
  internal: 'Interne',
  depth: 'Profondeur',
  metaDescription: 'Méta-description',
  h1: 'H1',
  canonical: 'URL canonique',
  redirectTarget: 'Redirige vers',
  sizeBytes: 'Taille (octets)',
  internalLinks: 'Liens internes',
  externalLinks: 'Liens externes',
  images: 'Images',
  imagesWithoutAlt: 'Images sans alt',
  pagespeedStatus: 'Statut PageSpeed',
  truncatedAtExcelLimit: 'Tronqué : une feuille Excel contient au plus 1 048 576 lignes.',
  site: 'Site',
  auditDate: "Date de l'audit",
  preparedWith: 'Réalisé avec Site Audit API',
  scorecard: 'Bilan par pilier',
  scorecardIntro: "Cinq piliers, chacun noté sur 100 séparément ; il n'y a pas de moyenne globale. Pour chaque pilier, les vérifications qui font perdre des points et ce qu'il faut corriger.",
  scorecardMissing: "Le bilan par pilier n'était pas disponible pour ce rapport.",
  asOf: (date) => `au ${date}`,
  whatToFix: 'À corriger',
  whyItMatters: 'Pourquoi c’est important',
  occurrenceCount: (count, n) => `${n} ${count < 2 ? 'occurrence' : 'occurrences'}`,
  noFailingCheck: 'Aucune vérification en échec.',
  moreChecks: (n) => (singular('fr', n) ? `… et ${n} autre vérification, listée dans Problèmes par gravité et catégorie.` : `… et ${n} autres vérifications, listées dans Problèmes par gravité et catégorie.`),
  chartByCategory: 'Problèmes par catégorie et gravité',
  chartHistory: 'Score de santé des derniers crawls comparables',
  historyFirst: 'Premier crawl comparable : le graphique se complète avec les prochains crawls lancés avec les mêmes réglages.',
  historyNote: 'Les crawls comparables ont été lancés avec les mêmes réglages.',
  sheets: { summary: 'Synthèse', issues: 'Problèmes', pages: 'Pages', pagespeed: 'PageSpeed', changes: 'Évolutions', logs: 'Journaux', logUrls: 'Journaux – URL', logDays: 'Journaux – jours', scorecard: 'Bilan par pilier' },
  logs: {
    title: 'Ce que les robots explorent (journaux d’accès)',
    period: (from, to, n, count) => `Journaux d’accès du ${from} au ${to} (${count} ${n < 2 ? 'import' : 'imports'}), croisés avec le dernier crawl terminé. Les robots déclarés non vérifiés sont comptés à part et nulle part ailleurs.`,
    noCrawl: 'Aucun crawl terminé à croiser avec les journaux : le budget de crawl et les constats en ont besoin.',
    botHits: 'Passages de robots (vérifiés, ou sans vérification possible)',
    unverifiedClaims: 'Robots déclarés non vérifiés (comptés à part)',
    humanHits: 'Visites humaines (comptées, jamais stockées une à une)',
    byFamily: 'Passages par famille de robots',
    family: 'Famille',
    verification: 'Vérification',
    hits: 'Passages',
    urls: 'URL',
    lastVisit: 'Dernier passage (UTC)',
    axis: 'Axe',
    budget: 'Où part le budget de crawl',
    budgetNote: 'Passages de robots selon ce qu’est l’URL ; un passage peut compter dans plusieurs lignes.',
    spentOn: 'Dépensé sur',
    share: 'Part',
    notInCrawl: (n) => `URL visitées par les robots que le crawl n’a pas trouvées (${n})`,
    notVisited: (n) => `Pages indexables qu’aucun robot n’a visitées (${n})`,
    none: 'Aucune.',
    ai: 'Robots d’IA',
    aiUrls: 'URL explorées par des agents IA',
    aiLastVisit: 'Dernier passage d’un agent IA',
    topUrls: (n) => `Les ${n} URL les plus visitées par les robots`,
    families: 'Familles',
    statusCodes: 'Codes de statut',
    bytes: 'Octets',
    day: 'Jour',
    statusClass: 'Classe de statut',
    finding: 'Constat',
    imports: 'Imports',
    covered: 'Période couverte (UTC)',
  },
  changes: {
    title: 'Depuis le dernier crawl',
    comparedWith: (date) =>
      `Comparaison avec le crawl précédent lancé avec les mêmes réglages, terminé le ${date}. Chaque occurrence compte : un deuxième lien cassé sur une page est nouveau. « Corrigés » : la page est toujours là, sans le problème ; « Partis avec leur page » : la page a été retirée, redirigée, répond une erreur ou n’est plus indexable.`,
    noPrevious: 'Premier crawl avec ces réglages : le prochain crawl de cette campagne sera comparé à celui-ci.',
    blocked: 'Le site a bloqué ce crawl : il n’est pas comparé au précédent.',
    notCompared: 'Ce crawl n’a pas été comparé à un crawl antérieur.',
    pagesNote:
      'Une page supprimée mais toujours liée répond 404 : elle compte dans « Code de statut modifié », et les liens vers elle comme nouveaux liens cassés. Les « Pages retirées » sont les URL que ce crawl n’a plus atteintes.',
    redirectNote:
      '« Redirection modifiée » : le même statut, une autre redirection : une page qui envoie désormais ailleurs (une page de redirection meta refresh répond 200), une redirection qui pointe ailleurs, ou une redirection redevenue une page. Ce qu’avait une page devenue redirection est « Partis avec leur page ».',
    redirectTargets: (before, now) => `${before ?? 'pas de redirection'} → ${now ?? 'pas de redirection'}`,
    issuePairs: 'Occurrences de problèmes',
    kinds: {
      issue_new: 'Nouveaux',
      issue_fixed: 'Corrigés',
      issue_gone_with_page: 'Partis avec leur page',
      issue_persisting: 'Toujours présents',
      page_added: 'Pages ajoutées',
      page_removed: 'Pages retirées',
      status_changed: 'Code de statut modifié',
      redirect_changed: 'Redirection modifiée',
    },
    pillar: 'Pilier',
    previous: 'Avant',
    current: 'Maintenant',
    delta: 'Écart',
    checksHeading: 'Vérifications qui ont le plus bougé, les plus graves d’abord',
    newCount: 'Nouveaux',
    fixedCount: 'Corrigés',
    goneCount: 'Partis avec leur page',
    kind: 'Évolution',
    previousStatus: 'Statut précédent',
    noChange: 'Rien n’a changé.',
    movement: {
      heading: 'Pourquoi le score a bougé',
      explained:
        'Les points de chaque vérification sont sa part exacte du mouvement : un score vaut 100 × exp(−Σ coûts), donc l’évolution du coût de chaque vérification (poids × √part) le fait bouger d’une part, et les parts s’additionnent au tout. Une vérification compte par les pages où elle est, pas par ses occurrences : de nouvelles occurrences sur des pages qui l’avaient déjà ne font bouger aucun point. Les points sont arrondis au dixième de sorte que leur somme soit le mouvement exact ; la dernière ligne est l’arrondi des deux scores publiés.',
      pillar: (pillar, previous, current, previousExact, currentExact) => `${pillar} ${previous} → ${current} (exactement ${previousExact} → ${currentExact})`,
      points: 'Points',
      check: 'Vérification',
      what: 'Ce qui a changé',
      fixed: (before) => `résolu (était sur ${before})`,
      added: (now) => `nouveau (sur ${now})`,
      fewer: (before, now) => `sur moins de pages (${before} → ${now})`,
      more: (before, now) => `sur plus de pages (${before} → ${now})`,
      share: (pages) => `toujours ${pages}, mais le nombre de pages du site a changé`,
      otherChecks: (n) => `${n} autres vérifications`,
      pages: (n, plural) => `${n} page${plural ? 's' : ''}`,
      notFromChecks: 'Hors vérifications (PageSpeed, ou un score enregistré selon des règles antérieures)',
      rounding: 'Arrondi des scores publiés',
      total: 'Total',
      unexplained: 'Non expliqué pour cette comparaison (réglée avant l’attribution des scores).',
    },
  },
  healthScoreIs: (pillar) => `le score du pilier ${pillar}`,
  pillarsWithoutScore: 'Sans score dans ce rapport',
  scoreFromAxes:
    "Comment le score est calculé : chaque vérification déclenchée coûte poids × √part, avec un poids de 0,35 pour une erreur, 0,12 pour un avertissement et 0 pour une information, " +
    "et part la fraction des pages qu'elle juge où elle se déclenche (de toutes les URL internes pour une vérification de statut, de redirection ou de sitemap, des pages HTML en 2xx pour une vérification du contenu d'une page, 1 pour une vérification à l'échelle du site). Un axe multiplie le score par exp(−Σ coûts de ses vérifications), son facteur ; " +
    "le score vaut 100 × le produit des facteurs (PageSpeed, quand il est mesuré, en ajoute un) : ce n'est pas la moyenne des axes, et il n'est jamais au-dessus du plus faible.",
  inputs: {
    axis: 'Axe',
    score: 'Score',
    factor: 'Facteur',
    weight: 'Poids',
    scoredPages: (urls, html) => `Pages notées : ${urls} URL ${singular('fr', urls) ? 'interne' : 'internes'}, dont ${html} ${singular('fr', html) ? 'page' : 'pages'} HTML en 2xx.`,
    check: (label, severity, share, weight, sqrt, cost) => `${label} (${severity}, ${share}) : ${weight} × √${sqrt} = ${cost}`,
    wholeSite: 'tout le site',
    pagesOf: (pages, total) => `${pages} ${singular('fr', pages) ? 'page' : 'pages'} sur ${total}`,
    otherChecks: (n, cost) => (singular('fr', n) ? `${n} autre vérification : ${cost}` : `${n} autres vérifications : ${cost} à elles toutes`),
    pagespeed: (combined) => `score combiné ${combined} : exp(−0,35 × (1 − ${combined} / 100))`,
    product: (factors, exact, score) => `Score = 100 × ${factors} = ${exact}, arrondi à ${score} (calculé avec les facteurs exacts ; ceux affichés sont arrondis à 3 décimales).`,
    mean: (terms, exact, score) => `Score = ${terms} = ${exact}, arrondi à ${score}.`,
    meanFormula: 'Le score est la moyenne pondérée des axes qui ont un score : Σ poids × score.',
    exact: 'Avant arrondi',
    method: 'Combinaison des axes',
    methods: { product: '100 × produit des facteurs', weighted_mean: 'Moyenne pondérée' },
    scoredPagesHeader: 'URL notées',
    htmlPagesHeader: 'Pages HTML (2xx)',
    judgedPagesHeader: 'Pages jugées',
    axisScore: 'Score de l’axe',
    share: 'Part',
    checkWeight: 'Poids de la vérification',
    cost: 'Coût',
  },
};

export function exportStrings(language: ExportLanguage): ExportStrings {
  return language === 'en' ? en : fr;
}

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
/** The catalogue's severity order, read with any string (a severity the catalogue lacks is undefined). */
export const SEVERITY_RANK: Readonly<Record<string, number | undefined>> = CATALOGUE_SEVERITY_RANK;

/** Locale-aware number and UTC date formatting shared by both renderers. */
export function formatters(t: ExportStrings) {
  const integer = new Intl.NumberFormat(t.locale, { maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(t.locale, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(t.locale, { style: 'percent', maximumFractionDigits: 1 });
  const dateTime = new Intl.DateTimeFormat(t.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const day = new Intl.DateTimeFormat(t.locale, { dateStyle: 'long', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat(t.locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return {
    int: (n: number) => integer.format(n),
    num: (n: number) => decimal.format(n),
    /** `n` with exactly `digits` decimals (factors, costs). */
    fixed: (n: number, digits: number) => new Intl.NumberFormat(t.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n),
    /** A 0..1 share as a percentage. */
    percent: (share: number) => percent.format(share),
    dateTime(iso: string | null): string {
      const d = parseDate(iso);
      return d ? `${dateTime.format(d)} UTC` : t.notAvailable;
    },
    date(iso: string | null): string {
      const d = parseDate(iso);
      return d ? day.format(d) : t.notAvailable;
    },
    /** Day and month, for chart axes. */
    shortDate(iso: string | null): string {
      const d = parseDate(iso);
      return d ? shortDay.format(d) : '';
    },
  };
}

/** Hits by status code as "200 × 3 · 301 × 1", codes in order. */
export function statusList(codes: Record<string, number>, int: (n: number) => string): string {
  return Object.entries(codes)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, n]) => `${code} × ${int(n)}`)
    .join(' · ');
}

export function parseDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}
