/**
 * The audit catalogue (docs/health-score.md): every check's severity, category and labels, the
 * data the server's crawler raises and the mock's generated reports carry. Names are stable
 * machine names: stored with each occurrence, used by filters, exports and comparisons between
 * crawls; never rename one.
 *
 * `basis` says what a check judges (`CheckBasis`): the site, any URL, or (unmarked) an HTML page;
 * the health score takes each check's share of those (docs/health-score.md).
 */
import type { Severity } from '../common.js';
import { THRESHOLDS as T } from './check-thresholds.js';

export interface CheckDefinition {
  severity: Severity;
  category: CheckCategory;
  label: { fr: string; en: string };
  basis?: CheckBasis;
}

/**
 * What a check judges, and so what its share is of (docs/health-score.md, "Formula"):
 * - `site`: the site as a whole (robots.txt, sitemaps, llms.txt): share 1;
 * - `url`: any internal URL the crawl recorded, whatever it answered (statuses, redirects,
 *   robots.txt blocks, sitemap entries, the link graph), or a resource's own URL (an image too
 *   large): a share of every scored URL;
 * - `page` (no basis given): an HTML page answering 2xx, the only pages its content is read on
 *   (titles, headings, links, images, structured data…): a share of those pages, so that 404s and
 *   PDFs do not dilute it.
 */
export type CheckBasis = 'site' | 'url' | 'page';

export type CheckCategory =
  | 'http'
  | 'indexability'
  | 'canonicals'
  | 'robots_sitemaps'
  | 'titles'
  | 'content'
  | 'links_images'
  | 'international'
  | 'performance_security'
  | 'structured_data'
  | 'ai_reachability'
  | 'accessibility';

const E = 'error' as const;
const W = 'warning' as const;
const I = 'info' as const;

function check(severity: Severity, category: CheckCategory, en: string, fr: string, basis?: 'site' | 'url'): CheckDefinition {
  return basis ? { severity, category, label: { fr, en }, basis } : { severity, category, label: { fr, en } };
}

/** 50000 → 50,000 (en) or 50 000 (fr), the same on every runtime (toLocaleString follows ICU's data). */
function thousands(n: number, separator: string): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, separator);
}

export const CHECKS = {
  // HTTP and redirects
  http_5xx: check(E, 'http', 'Server error (5xx)', 'Erreur serveur (5xx)', 'url'),
  http_4xx: check(E, 'http', 'Internal page answers 4xx', 'Page interne en erreur 4xx', 'url'),
  fetch_failed: check(E, 'http', 'Timeout or connection failure', 'Délai dépassé ou échec de connexion', 'url'),
  broken_internal_link: check(E, 'http', 'Broken internal link', 'Lien interne cassé'),
  broken_external_link: check(W, 'http', 'Broken external link', 'Lien externe cassé'),
  redirect_loop: check(E, 'http', 'Redirect loop', 'Boucle de redirections', 'url'),
  redirect_chain: check(W, 'http', 'Redirect chain of more than one hop', 'Chaîne de redirections de plus d’un saut', 'url'),
  link_to_redirect: check(W, 'http', 'Internal link to a redirect', 'Lien interne vers une redirection'),
  temporary_redirect: check(I, 'http', 'Temporary redirect (302/307)', 'Redirection temporaire (302/307)', 'url'),
  meta_refresh: check(W, 'http', 'Meta refresh redirect', 'Redirection par balise meta refresh', 'url'),
  http_page: check(E, 'http', 'Page served over HTTP', 'Page servie en HTTP'),
  mixed_content: check(W, 'http', 'Mixed content on an HTTPS page', 'Contenu mixte sur une page HTTPS'),
  redirect_to_http: check(W, 'http', 'HTTPS URL redirects to HTTP', 'URL HTTPS redirigée vers HTTP', 'url'),
  redirect_external: check(I, 'http', 'Internal URL redirects to another host', 'URL interne redirigée vers un autre hôte', 'url'),
  http_not_redirected: check(W, 'http', 'HTTP version of the site not redirected to HTTPS', 'Version HTTP du site non redirigée vers HTTPS', 'site'),
  internal_link_to_http: check(W, 'http', 'HTTPS page links to internal HTTP URLs', 'Page HTTPS avec des liens internes en HTTP'),
  soft_404: check(W, 'http', 'Soft 404: a “not found” page answering 200', 'Soft 404 : page « introuvable » qui répond 200'),

  // URL hygiene, judged on every internal HTML page's own URL
  url_uppercase: check(I, 'http', 'URL with uppercase letters', 'URL avec des majuscules'),
  url_underscores: check(I, 'http', 'URL with underscores', 'URL avec des tirets bas'),
  url_spaces: check(W, 'http', 'URL with spaces', 'URL avec des espaces'),
  url_non_ascii: check(I, 'http', 'URL with non-ASCII characters', 'URL avec des caractères non ASCII'),
  url_too_long: check(I, 'http', `URL over ${T.urlMaxChars} characters`, `URL de plus de ${T.urlMaxChars} caractères`),
  url_many_parameters: check(I, 'http', `URL with more than ${T.urlMaxParameters} query parameters`, `URL avec plus de ${T.urlMaxParameters} paramètres`),
  url_session_id: check(W, 'http', 'Session id in the URL', 'Identifiant de session dans l’URL'),

  // Resources pages load (docs/decisions/resources.md), reported on each page that uses them
  broken_stylesheet: check(E, 'http', 'Broken stylesheet (CSS)', 'Feuille de style (CSS) cassée'),
  broken_script: check(E, 'http', 'Broken script (JavaScript)', 'Script (JavaScript) cassé'),
  broken_resource: check(W, 'http', 'Broken icon, manifest, preload, media, frame or object', 'Icône, manifeste, préchargement, média, cadre ou objet cassé'),
  resource_redirect: check(I, 'http', 'Resource loaded through a redirect', 'Ressource chargée via une redirection'),
  resource_blocked_by_robots: check(I, 'http', 'Resource blocked by robots.txt (search engines render without it)', 'Ressource bloquée par le robots.txt (les moteurs affichent la page sans elle)'),
  resource_budget_reached: check(I, 'http', 'Resource checks stopped at the crawl’s budget', 'Vérification des ressources arrêtée au budget du crawl', 'site'),

  // Indexability and robots
  noindex: check(W, 'indexability', 'Noindex (meta tag or X-Robots-Tag)', 'Noindex (balise meta ou X-Robots-Tag)'),
  blocked_by_robots: check(W, 'indexability', 'Blocked by robots.txt', 'Bloquée par le robots.txt', 'url'),
  orphan_page: check(W, 'indexability', 'Orphan page: no click path from the start URL (only in a sitemap, or linked only from such pages)', 'Page orpheline : aucun chemin de clics depuis l’URL de départ (seulement dans un sitemap, ou liée seulement depuis de telles pages)', 'url'),
  deep_page: check(I, 'indexability', `Click depth over ${T.maxDepth}`, `Profondeur de clic supérieure à ${T.maxDepth}`),
  dead_end_page: check(I, 'indexability', 'Dead-end page: no outgoing links', 'Page sans issue : aucun lien sortant'),
  meta_robots_in_body: check(W, 'indexability', 'Meta robots in <body>', 'Meta robots dans le <body>'),
  robots_conflict: check(W, 'indexability', 'Conflicting robots directives', 'Directives robots contradictoires'),
  robots_unknown_directive: check(I, 'indexability', 'Unknown robots directive', 'Directive robots inconnue'),
  x_robots_tag_directives: check(I, 'indexability', 'X-Robots-Tag header restricts search engines', 'En-tête X-Robots-Tag restreignant les moteurs'),
  robots_nosnippet: check(I, 'indexability', 'Snippets forbidden (nosnippet or max-snippet:0)', 'Extraits interdits (nosnippet ou max-snippet:0)'),
  noindex_with_canonical: check(W, 'indexability', 'Noindex page with a canonical to another URL', 'Page noindex avec une canonique vers une autre URL'),
  single_inlink: check(I, 'indexability', 'Page with a single incoming internal link', 'Page avec un seul lien interne entrant', 'url'),

  // Canonicals
  canonical_to_error: check(E, 'canonicals', 'Canonical to a 4xx/5xx page', 'Canonique vers une page en 4xx/5xx'),
  canonical_to_redirect: check(W, 'canonicals', 'Canonical to a redirect', 'Canonique vers une redirection'),
  canonical_to_noindex: check(W, 'canonicals', 'Canonical to a noindex page', 'Canonique vers une page noindex'),
  canonical_chain: check(W, 'canonicals', 'Canonical chain or loop', 'Chaîne ou boucle de canoniques'),
  canonical_conflict: check(W, 'canonicals', 'Several canonicals, or HTML and header canonicals disagree', 'Plusieurs canoniques, ou canoniques HTML et en-tête en désaccord'),
  canonical_relative: check(I, 'canonicals', 'Relative canonical URL', 'URL canonique relative'),
  canonical_invalid: check(E, 'canonicals', 'Canonical that is not a crawlable http(s) URL', 'Canonique qui n’est pas une URL http(s) explorable'),
  canonical_in_body: check(W, 'canonicals', 'Canonical in <body> (ignored by search engines)', 'Canonique dans le <body> (ignorée par les moteurs)'),
  canonical_missing: check(I, 'canonicals', 'No canonical on an indexable page', 'Aucune canonique sur une page indexable'),
  canonical_cross_domain: check(W, 'canonicals', 'Canonical to another host', 'Canonique vers un autre hôte'),
  canonical_to_http: check(W, 'canonicals', 'HTTPS page with an HTTP canonical', 'Page HTTPS avec une canonique HTTP'),

  // The site as a whole could not be reached (DNS, connection, TLS, timeout): the crawl fails (docs/decisions/crawl-lifecycle.md).
  site_unreachable: check(E, 'http', 'Site unreachable', 'Site injoignable', 'site'),

  // robots.txt and sitemaps
  robots_txt_5xx: check(E, 'robots_sitemaps', 'robots.txt answers 5xx (disallow all)', 'robots.txt en erreur 5xx (tout est interdit)', 'site'),
  robots_txt_missing: check(I, 'robots_sitemaps', 'robots.txt missing', 'robots.txt absent', 'site'),
  sitemap_missing: check(I, 'robots_sitemaps', 'No XML sitemap', 'Aucun sitemap XML', 'site'),
  sitemap_not_in_robots: check(I, 'robots_sitemaps', 'Sitemap not listed in robots.txt', 'Sitemap non déclaré dans le robots.txt', 'site'),
  // Named before the split below; now only the URLs answering 4xx/5xx or nothing (docs/decisions/checks-catalogue.md).
  sitemap_bad_url: check(W, 'robots_sitemaps', 'Sitemap lists a URL answering 4xx/5xx or nothing', 'Le sitemap liste une URL en 4xx/5xx ou sans réponse', 'url'),
  sitemap_redirect: check(W, 'robots_sitemaps', 'Sitemap lists a redirect', 'Le sitemap liste une redirection', 'url'),
  sitemap_noindex: check(W, 'robots_sitemaps', 'Sitemap lists a noindex page', 'Le sitemap liste une page noindex'),
  sitemap_non_canonical: check(W, 'robots_sitemaps', 'Sitemap lists a non-canonical URL', 'Le sitemap liste une URL non canonique'),
  sitemap_blocked: check(W, 'robots_sitemaps', 'Sitemap lists a URL blocked by robots.txt', 'Le sitemap liste une URL bloquée par le robots.txt', 'url'),
  not_in_sitemap: check(I, 'robots_sitemaps', 'Indexable page missing from the sitemap', 'Page indexable absente du sitemap', 'url'),
  sitemap_too_large: check(W, 'robots_sitemaps', `Sitemap over ${thousands(T.sitemapMaxUrls, ',')} URLs or 50 MB`, `Sitemap de plus de ${thousands(T.sitemapMaxUrls, '\u00a0')} URL ou 50 Mo`, 'site'),
  sitemap_invalid: check(W, 'robots_sitemaps', 'Sitemap that is not a sitemap XML document', 'Sitemap qui n’est pas un document XML de sitemap', 'site'),
  sitemap_foreign_url: check(W, 'robots_sitemaps', 'Sitemap lists URLs of another host', 'Le sitemap liste des URL d’un autre hôte', 'site'),

  // Titles and descriptions
  title_missing: check(E, 'titles', 'Title missing or empty', 'Titre absent ou vide'),
  title_duplicate: check(W, 'titles', 'Duplicate title', 'Titre dupliqué'),
  title_too_long: check(I, 'titles', `Title over ${T.titleMax} characters`, `Titre de plus de ${T.titleMax} caractères`),
  title_too_short: check(I, 'titles', `Title under ${T.titleMin} characters`, `Titre de moins de ${T.titleMin} caractères`),
  title_multiple: check(W, 'titles', 'Several <title> tags', 'Plusieurs balises <title>'),
  description_missing: check(W, 'titles', 'Meta description missing', 'Meta description absente'),
  description_duplicate: check(W, 'titles', 'Duplicate meta description', 'Meta description dupliquée'),
  description_too_short: check(I, 'titles', `Meta description under ${T.descriptionMin} characters`, `Meta description de moins de ${T.descriptionMin} caractères`),
  description_too_long: check(I, 'titles', `Meta description over ${T.descriptionMax} characters`, `Meta description de plus de ${T.descriptionMax} caractères`),
  description_multiple: check(W, 'titles', 'Several meta descriptions', 'Plusieurs meta descriptions'),

  // Content
  h1_missing: check(W, 'content', 'No h1', 'Aucun h1'),
  h1_multiple: check(I, 'content', 'Several h1', 'Plusieurs h1'),
  heading_skip: check(I, 'content', 'Heading levels skipped', 'Niveaux de titres sautés'),
  thin_content: check(W, 'content', `Thin content (under ${T.thinWords} words)`, `Contenu pauvre (moins de ${T.thinWords} mots)`),
  duplicate_content: check(E, 'content', 'Exact duplicate content', 'Contenu dupliqué à l’identique'),
  near_duplicate_content: check(W, 'content', 'Near-duplicate content', 'Contenu quasi dupliqué'),
  lang_missing: check(I, 'content', 'Missing lang attribute', 'Attribut lang absent'),
  lang_invalid: check(I, 'content', 'Invalid lang attribute', 'Attribut lang invalide'),
  viewport_missing: check(W, 'content', 'No viewport meta tag', 'Aucune balise meta viewport'),
  html_too_large: check(W, 'content', 'HTML over 2 MB', 'HTML de plus de 2 Mo'),
  duplicate_id: check(I, 'content', 'Duplicate id attribute', 'Attribut id dupliqué'),
  h1_empty: check(W, 'content', 'Empty h1', 'h1 vide'),
  h1_too_long: check(I, 'content', `h1 over ${T.h1MaxChars} characters`, `h1 de plus de ${T.h1MaxChars} caractères`),
  placeholder_text: check(W, 'content', 'Placeholder text (lorem ipsum)', 'Texte de remplissage (lorem ipsum)'),
  charset_missing: check(I, 'content', 'No character encoding declared', 'Aucun encodage de caractères déclaré'),

  // Links and images
  too_many_links: check(I, 'links_images', `Over ${T.maxLinks} links on the page`, `Plus de ${T.maxLinks} liens sur la page`),
  internal_nofollow: check(I, 'links_images', 'Nofollow on internal links', 'Nofollow sur des liens internes'),
  // Judged once the targets are crawled (crawler/site/nofollow-links.ts); a page gets this or internal_nofollow, never both.
  internal_nofollow_to_indexable: check(W, 'links_images', 'Nofollow on internal links to indexable pages', 'Nofollow sur des liens internes vers des pages indexables'),
  image_missing_alt: check(W, 'links_images', 'Image without alt', 'Image sans attribut alt'),
  image_alt_too_long: check(I, 'links_images', `Image alt over ${T.altMax} characters`, `Texte alternatif de plus de ${T.altMax} caractères`),
  image_too_large: check(I, 'links_images', 'Image over 500 KB', 'Image de plus de 500 Ko', 'url'),
  broken_image: check(E, 'links_images', 'Broken image', 'Image cassée'),
  image_missing_dimensions: check(I, 'links_images', 'Image without width and height', 'Image sans largeur ni hauteur'),
  anchor_text_empty: check(W, 'links_images', 'Internal link without anchor text', 'Lien interne sans texte d’ancre'),
  anchor_text_generic: check(I, 'links_images', 'Internal link with generic anchor text (“click here”)', 'Lien interne au texte d’ancre générique (« cliquez ici »)'),

  // International
  hreflang_no_return: check(W, 'international', 'Hreflang without return link', 'Hreflang sans lien de retour'),
  hreflang_bad_target: check(W, 'international', 'Hreflang to a non-200 or non-canonical URL', 'Hreflang vers une URL non 200 ou non canonique'),
  hreflang_no_x_default: check(I, 'international', 'Hreflang without x-default', 'Hreflang sans x-default'),
  hreflang_no_self: check(I, 'international', 'Hreflang without self reference', 'Hreflang sans autoréférence'),
  hreflang_invalid_code: check(W, 'international', 'Invalid hreflang language code', 'Code de langue hreflang invalide'),
  hreflang_duplicate_lang: check(W, 'international', 'Several hreflang URLs for one language', 'Plusieurs URL hreflang pour une même langue'),
  // Language versions (crawler/page/page-language.ts): declared by <html lang> or Content-Language, or named by the URL.
  hreflang_missing: check(W, 'international', 'Several language versions without hreflang', 'Plusieurs versions linguistiques sans hreflang', 'site'),
  lang_mismatch: check(W, 'international', 'Text not in the page’s declared language', 'Texte dans une autre langue que celle déclarée'),

  // Performance and security
  slow_response: check(W, 'performance_security', `Response time over ${T.slowMs} ms`, `Temps de réponse supérieur à ${T.slowMs} ms`),
  not_compressed: check(I, 'performance_security', 'HTML not compressed', 'HTML non compressé'),
  hsts_missing: check(I, 'performance_security', 'No HSTS on HTTPS', 'Pas de HSTS en HTTPS'),
  form_to_http: check(W, 'performance_security', 'Form posting to HTTP', 'Formulaire envoyé en HTTP'),
  x_content_type_options_missing: check(I, 'performance_security', 'No X-Content-Type-Options: nosniff on HTTPS', 'Pas de X-Content-Type-Options: nosniff en HTTPS'),
  csp_missing: check(I, 'performance_security', 'No Content-Security-Policy on HTTPS', 'Pas de Content-Security-Policy en HTTPS'),
  frame_protection_missing: check(I, 'performance_security', 'No X-Frame-Options or frame-ancestors on HTTPS', 'Ni X-Frame-Options ni frame-ancestors en HTTPS'),
  referrer_policy_missing: check(I, 'performance_security', 'No Referrer-Policy on HTTPS', 'Pas de Referrer-Policy en HTTPS'),
  // Raised by the crawl's PageSpeed step (modules/crawls/pagespeed-step.ts), on the measured page.
  lighthouse_mobile_slow: check(W, 'performance_security', `Lighthouse mobile performance under ${T.lighthouseMobileMin}`, `Performance mobile Lighthouse inférieure à ${T.lighthouseMobileMin}`),

  // JavaScript rendering and accessibility (with javascript_rendering or check_accessibility*).
  // Info: a page our browser could not load says little about the site, so it never lowers the score.
  render_failed: check(I, 'http', 'Page could not be rendered in headless Chromium', 'Page impossible à afficher dans Chromium sans interface'),

  // Structured data and social
  jsonld_invalid: check(W, 'structured_data', 'JSON-LD that does not parse', 'JSON-LD illisible'),
  og_missing: check(I, 'structured_data', 'Missing og:title, og:description or og:image', 'og:title, og:description ou og:image absent'),
  og_image_not_absolute: check(I, 'structured_data', 'og:image is not an absolute URL', 'og:image n’est pas une URL absolue'),
  twitter_card_missing: check(I, 'structured_data', 'No twitter:card on a page with Open Graph tags', 'Pas de twitter:card sur une page avec des balises Open Graph'),
  // Structured data that parses but lacks what Google requires for the type's rich result.
  schema_product_incomplete: check(W, 'structured_data', 'Product markup missing required properties', 'Balisage Product sans ses propriétés requises'),
  schema_article_incomplete: check(W, 'structured_data', 'Article markup missing required properties', 'Balisage Article sans ses propriétés requises'),
  schema_breadcrumb_incomplete: check(W, 'structured_data', 'BreadcrumbList markup missing required properties', 'Balisage BreadcrumbList sans ses propriétés requises'),
  schema_organization_incomplete: check(W, 'structured_data', 'Organization markup missing required properties', 'Balisage Organization sans ses propriétés requises'),
  schema_faq_incomplete: check(W, 'structured_data', 'FAQPage markup missing required properties', 'Balisage FAQPage sans ses propriétés requises'),
  schema_event_incomplete: check(W, 'structured_data', 'Event markup missing required properties', 'Balisage Event sans ses propriétés requises'),
  schema_recipe_incomplete: check(W, 'structured_data', 'Recipe markup missing required properties', 'Balisage Recipe sans ses propriétés requises'),
  schema_local_business_incomplete: check(W, 'structured_data', 'LocalBusiness markup missing required properties', 'Balisage LocalBusiness sans ses propriétés requises'),

  // AI reachability (with check_ai_reachability)
  ai_search_agent_blocked: check(E, 'ai_reachability', 'AI search or answer agent blocked by robots.txt', 'Agent de recherche ou de réponse IA bloqué par le robots.txt', 'site'),
  ai_training_crawler_blocked: check(I, 'ai_reachability', 'AI training crawler blocked by robots.txt', 'Robot d’entraînement IA bloqué par le robots.txt', 'site'),
  llms_txt_missing: check(I, 'ai_reachability', 'llms.txt missing', 'llms.txt absent', 'site'),
  llms_txt_no_h1: check(I, 'ai_reachability', 'llms.txt without its required H1', 'llms.txt sans son titre H1 obligatoire', 'site'),
} satisfies Record<string, CheckDefinition>;

export type CheckName = keyof typeof CHECKS;

/** Errors first: the order of every issue list and issue summary. */
export const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const satisfies Record<Severity, number>;

/**
 * The order of an issue summary's groups: errors first, then the most frequent, then by check
 * name in code-point order (the same on SQLite, on PostgreSQL whatever its collation, and in the mock).
 */
export function bySummaryOrder(a: { severity: Severity; occurrences: number; name: string }, b: { severity: Severity; occurrences: number; name: string }): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.occurrences - a.occurrences || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
