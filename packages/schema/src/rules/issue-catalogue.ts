/**
 * The audit catalogue (docs/health-score.md): every check's severity, category and labels, the
 * data the server's crawler raises and the mock's generated reports carry. Names are stable
 * machine names: stored with each occurrence, used by filters, exports and comparisons between
 * crawls; never rename one.
 *
 * `scope: 'site'` marks checks about the site as a whole (robots.txt, sitemap, llms.txt): the
 * health score counts them as affecting every page (docs/health-score.md).
 */
import type { Severity } from '../common.js';

export interface CheckDefinition {
  severity: Severity;
  category: CheckCategory;
  label: { fr: string; en: string };
  scope?: 'site';
}

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

function check(severity: Severity, category: CheckCategory, en: string, fr: string, scope?: 'site'): CheckDefinition {
  return scope ? { severity, category, label: { fr, en }, scope } : { severity, category, label: { fr, en } };
}

export const CHECKS = {
  // HTTP and redirects
  http_5xx: check(E, 'http', 'Server error (5xx)', 'Erreur serveur (5xx)'),
  http_4xx: check(E, 'http', 'Internal page answers 4xx', 'Page interne en erreur 4xx'),
  fetch_failed: check(E, 'http', 'Timeout or connection failure', 'Délai dépassé ou échec de connexion'),
  broken_internal_link: check(E, 'http', 'Broken internal link', 'Lien interne cassé'),
  broken_external_link: check(W, 'http', 'Broken external link', 'Lien externe cassé'),
  redirect_loop: check(E, 'http', 'Redirect loop', 'Boucle de redirections'),
  redirect_chain: check(W, 'http', 'Redirect chain of more than one hop', 'Chaîne de redirections de plus d’un saut'),
  link_to_redirect: check(W, 'http', 'Internal link to a redirect', 'Lien interne vers une redirection'),
  temporary_redirect: check(I, 'http', 'Temporary redirect (302/307)', 'Redirection temporaire (302/307)'),
  meta_refresh: check(W, 'http', 'Meta refresh redirect', 'Redirection par balise meta refresh'),
  http_page: check(E, 'http', 'Page served over HTTP', 'Page servie en HTTP'),
  mixed_content: check(W, 'http', 'Mixed content on an HTTPS page', 'Contenu mixte sur une page HTTPS'),

  // Resources pages load (docs/decisions/resources.md), reported on each page that uses them
  broken_stylesheet: check(E, 'http', 'Broken stylesheet (CSS)', 'Feuille de style (CSS) cassée'),
  broken_script: check(E, 'http', 'Broken script (JavaScript)', 'Script (JavaScript) cassé'),
  broken_resource: check(W, 'http', 'Broken icon, manifest, preload, media, frame or object', 'Icône, manifeste, préchargement, média, cadre ou objet cassé'),
  resource_redirect: check(I, 'http', 'Resource loaded through a redirect', 'Ressource chargée via une redirection'),
  resource_blocked_by_robots: check(I, 'http', 'Resource blocked by robots.txt (search engines render without it)', 'Ressource bloquée par le robots.txt (les moteurs affichent la page sans elle)'),
  resource_budget_reached: check(I, 'http', 'Resource checks stopped at the crawl’s budget', 'Vérification des ressources arrêtée au budget du crawl', 'site'),

  // Indexability and robots
  noindex: check(W, 'indexability', 'Noindex (meta tag or X-Robots-Tag)', 'Noindex (balise meta ou X-Robots-Tag)'),
  blocked_by_robots: check(W, 'indexability', 'Blocked by robots.txt', 'Bloquée par le robots.txt'),
  orphan_page: check(W, 'indexability', 'Orphan page: in the sitemap, no internal link to it', 'Page orpheline : dans le sitemap, sans lien interne'),
  deep_page: check(I, 'indexability', 'Click depth over 4', 'Profondeur de clic supérieure à 4'),
  dead_end_page: check(I, 'indexability', 'Dead-end page: no outgoing links', 'Page sans issue : aucun lien sortant'),
  meta_robots_in_body: check(W, 'indexability', 'Meta robots in <body>', 'Meta robots dans le <body>'),

  // Canonicals
  canonical_to_error: check(E, 'canonicals', 'Canonical to a 4xx/5xx page', 'Canonique vers une page en 4xx/5xx'),
  canonical_to_redirect: check(W, 'canonicals', 'Canonical to a redirect', 'Canonique vers une redirection'),
  canonical_to_noindex: check(W, 'canonicals', 'Canonical to a noindex page', 'Canonique vers une page noindex'),
  canonical_chain: check(W, 'canonicals', 'Canonical chain or loop', 'Chaîne ou boucle de canoniques'),
  canonical_conflict: check(W, 'canonicals', 'Several canonicals, or HTML and header canonicals disagree', 'Plusieurs canoniques, ou canoniques HTML et en-tête en désaccord'),
  canonical_relative: check(I, 'canonicals', 'Relative canonical URL', 'URL canonique relative'),
  canonical_invalid: check(E, 'canonicals', 'Canonical that is not a crawlable http(s) URL', 'Canonique qui n’est pas une URL http(s) explorable'),
  canonical_in_body: check(W, 'canonicals', 'Canonical in <body> (ignored by search engines)', 'Canonique dans le <body> (ignorée par les moteurs)'),

  // robots.txt and sitemaps
  robots_txt_5xx: check(E, 'robots_sitemaps', 'robots.txt answers 5xx (disallow all)', 'robots.txt en erreur 5xx (tout est interdit)', 'site'),
  robots_txt_missing: check(I, 'robots_sitemaps', 'robots.txt missing', 'robots.txt absent', 'site'),
  sitemap_missing: check(I, 'robots_sitemaps', 'No XML sitemap', 'Aucun sitemap XML', 'site'),
  sitemap_not_in_robots: check(I, 'robots_sitemaps', 'Sitemap not listed in robots.txt', 'Sitemap non déclaré dans le robots.txt', 'site'),
  sitemap_bad_url: check(W, 'robots_sitemaps', 'Sitemap lists a non-200, noindex, non-canonical or blocked URL', 'Le sitemap liste une URL non 200, noindex, non canonique ou bloquée'),

  // Titles and descriptions
  title_missing: check(E, 'titles', 'Title missing or empty', 'Titre absent ou vide'),
  title_duplicate: check(W, 'titles', 'Duplicate title', 'Titre dupliqué'),
  title_too_long: check(I, 'titles', 'Title over 60 characters', 'Titre de plus de 60 caractères'),
  title_too_short: check(I, 'titles', 'Title under 20 characters', 'Titre de moins de 20 caractères'),
  title_multiple: check(W, 'titles', 'Several <title> tags', 'Plusieurs balises <title>'),
  description_missing: check(W, 'titles', 'Meta description missing', 'Meta description absente'),
  description_duplicate: check(W, 'titles', 'Duplicate meta description', 'Meta description dupliquée'),
  description_too_short: check(I, 'titles', 'Meta description under 70 characters', 'Meta description de moins de 70 caractères'),
  description_too_long: check(I, 'titles', 'Meta description over 160 characters', 'Meta description de plus de 160 caractères'),

  // Content
  h1_missing: check(W, 'content', 'No h1', 'Aucun h1'),
  h1_multiple: check(I, 'content', 'Several h1', 'Plusieurs h1'),
  heading_skip: check(I, 'content', 'Heading levels skipped', 'Niveaux de titres sautés'),
  thin_content: check(W, 'content', 'Thin content (under 200 words)', 'Contenu pauvre (moins de 200 mots)'),
  duplicate_content: check(E, 'content', 'Exact duplicate content', 'Contenu dupliqué à l’identique'),
  near_duplicate_content: check(W, 'content', 'Near-duplicate content', 'Contenu quasi dupliqué'),
  lang_missing: check(I, 'content', 'Missing lang attribute', 'Attribut lang absent'),
  lang_invalid: check(I, 'content', 'Invalid lang attribute', 'Attribut lang invalide'),
  viewport_missing: check(W, 'content', 'No viewport meta tag', 'Aucune balise meta viewport'),
  html_too_large: check(W, 'content', 'HTML over 2 MB', 'HTML de plus de 2 Mo'),
  duplicate_id: check(I, 'content', 'Duplicate id attribute', 'Attribut id dupliqué'),

  // Links and images
  too_many_links: check(I, 'links_images', 'Over 100 links on the page', 'Plus de 100 liens sur la page'),
  internal_nofollow: check(I, 'links_images', 'Nofollow on internal links', 'Nofollow sur des liens internes'),
  image_missing_alt: check(W, 'links_images', 'Image without alt', 'Image sans attribut alt'),
  image_alt_too_long: check(I, 'links_images', 'Image alt over 100 characters', 'Texte alternatif de plus de 100 caractères'),
  image_too_large: check(I, 'links_images', 'Image over 500 KB', 'Image de plus de 500 Ko'),
  broken_image: check(E, 'links_images', 'Broken image', 'Image cassée'),
  image_missing_dimensions: check(I, 'links_images', 'Image without width and height', 'Image sans largeur ni hauteur'),

  // International
  hreflang_no_return: check(W, 'international', 'Hreflang without return link', 'Hreflang sans lien de retour'),
  hreflang_bad_target: check(W, 'international', 'Hreflang to a non-200 or non-canonical URL', 'Hreflang vers une URL non 200 ou non canonique'),
  hreflang_no_x_default: check(I, 'international', 'Hreflang without x-default', 'Hreflang sans x-default'),
  hreflang_no_self: check(I, 'international', 'Hreflang without self reference', 'Hreflang sans autoréférence'),

  // Performance and security
  slow_response: check(W, 'performance_security', 'Response time over 800 ms', 'Temps de réponse supérieur à 800 ms'),
  not_compressed: check(I, 'performance_security', 'HTML not compressed', 'HTML non compressé'),
  hsts_missing: check(I, 'performance_security', 'No HSTS on HTTPS', 'Pas de HSTS en HTTPS'),
  form_to_http: check(W, 'performance_security', 'Form posting to HTTP', 'Formulaire envoyé en HTTP'),
  // Raised by the crawl's PageSpeed step (modules/crawls/pagespeed-step.ts), on the measured page.
  lighthouse_mobile_slow: check(W, 'performance_security', 'Lighthouse mobile performance under 50', 'Performance mobile Lighthouse inférieure à 50'),

  // JavaScript rendering and accessibility (with javascript_rendering or check_accessibility*).
  // Info: a page our browser could not load says little about the site, so it never lowers the score.
  render_failed: check(I, 'http', 'Page could not be rendered in headless Chromium', 'Page impossible à afficher dans Chromium sans interface'),

  // Structured data and social
  jsonld_invalid: check(W, 'structured_data', 'JSON-LD that does not parse', 'JSON-LD illisible'),
  og_missing: check(I, 'structured_data', 'Missing og:title, og:description or og:image', 'og:title, og:description ou og:image absent'),

  // AI reachability (with check_ai_reachability)
  ai_search_agent_blocked: check(E, 'ai_reachability', 'AI search or answer agent blocked by robots.txt', 'Agent de recherche ou de réponse IA bloqué par le robots.txt', 'site'),
  ai_training_crawler_blocked: check(I, 'ai_reachability', 'AI training crawler blocked by robots.txt', 'Robot d’entraînement IA bloqué par le robots.txt', 'site'),
  llms_txt_missing: check(I, 'ai_reachability', 'llms.txt missing', 'llms.txt absent', 'site'),
  llms_txt_no_h1: check(I, 'ai_reachability', 'llms.txt without its required H1', 'llms.txt sans son titre H1 obligatoire', 'site'),
} satisfies Record<string, CheckDefinition>;

export type CheckName = keyof typeof CHECKS;

/** Errors first: the order of every issue list and issue summary. */
export const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const satisfies Record<Severity, number>;
