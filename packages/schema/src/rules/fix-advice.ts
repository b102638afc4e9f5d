/**
 * What to fix, per check of the catalogue, in the report's language: one sentence a site owner can
 * act on. A check without its own advice gets its category's; accessibility findings point to the
 * axe rule's documentation. Shared by the reports (PDF, workbook) and the recommendations read of
 * the server and the mock.
 */
import type { Language } from '../errors.js';

/**
 * Accessibility findings are named after their axe-core rule (`a11y_image-alt`), a set that grows
 * with axe releases, so they are not listed in the catalogue.
 */
export const ACCESSIBILITY_PREFIX = 'a11y_';

type Advice = [en: string, fr: string];

const CHECK_FIXES: Record<string, Advice> = {
  http_5xx: ['Find why the server fails on these URLs (logs, timeouts, crashes) and make them answer 200.', 'Trouvez pourquoi le serveur échoue sur ces URL (logs, délais, plantages) et faites-les répondre 200.'],
  http_4xx: ['Restore these pages, redirect them (301) to their closest equivalent, or remove the links to them.', 'Rétablissez ces pages, redirigez-les (301) vers leur équivalent le plus proche, ou retirez les liens qui y mènent.'],
  fetch_failed: ['Check that the server answers within a few seconds and accepts connections under load.', 'Vérifiez que le serveur répond en quelques secondes et accepte les connexions en charge.'],
  broken_internal_link: ['Point these links at a live URL or remove them.', 'Faites pointer ces liens vers une URL valide ou supprimez-les.'],
  broken_external_link: ['Update or remove links to external pages that no longer exist.', 'Mettez à jour ou supprimez les liens vers des pages externes disparues.'],
  redirect_loop: ['Break the loop: make the last redirect point to a page that answers 200.', 'Cassez la boucle : faites pointer la dernière redirection vers une page qui répond 200.'],
  redirect_chain: ['Redirect the first URL straight to the final destination.', 'Redirigez la première URL directement vers la destination finale.'],
  link_to_redirect: ['Update internal links to point at the final URL instead of a redirect.', 'Mettez à jour les liens internes pour viser l’URL finale plutôt qu’une redirection.'],
  temporary_redirect: ['Use a permanent redirect (301/308) when the move is permanent.', 'Utilisez une redirection permanente (301/308) quand le déplacement est définitif.'],
  meta_refresh: ['Replace the meta refresh with a server-side 301 redirect.', 'Remplacez la balise meta refresh par une redirection 301 côté serveur.'],
  http_page: ['Serve every page over HTTPS and redirect HTTP to HTTPS.', 'Servez toutes les pages en HTTPS et redirigez HTTP vers HTTPS.'],
  mixed_content: ['Load every resource of HTTPS pages over HTTPS.', 'Chargez toutes les ressources des pages HTTPS en HTTPS.'],
  broken_stylesheet: ['Restore the stylesheet at its URL or update the <link> that loads it: without it the page renders unstyled.', 'Rétablissez la feuille de style à son URL ou corrigez le <link> qui la charge : sans elle la page s’affiche sans mise en forme.'],
  broken_script: ['Restore the script at its URL or update the <script src> that loads it: features that depend on it are broken.', 'Rétablissez le script à son URL ou corrigez le <script src> qui le charge : les fonctions qui en dépendent sont cassées.'],
  broken_resource: ['Restore the file at its URL or remove the reference (icon, manifest, preload, media, frame or object).', 'Rétablissez le fichier à son URL ou retirez la référence (icône, manifeste, préchargement, média, cadre ou objet).'],
  resource_redirect: ['Reference the final URL of the resource directly: each redirect delays the page.', 'Référencez directement l’URL finale de la ressource : chaque redirection retarde la page.'],
  resource_blocked_by_robots: ['Allow the CSS, JavaScript and images pages need in robots.txt, so search engines render pages as visitors see them.', 'Autorisez dans le robots.txt les CSS, JavaScript et images dont les pages ont besoin, pour que les moteurs affichent les pages comme les visiteurs.'],
  resource_budget_reached: ['Resources past the crawl’s budget were not checked: crawl parts of the site separately (include_patterns) to check them all.', 'Les ressources au-delà du budget du crawl n’ont pas été vérifiées : explorez le site par parties (include_patterns) pour toutes les vérifier.'],
  noindex: ['Remove noindex from pages that should appear in search results.', 'Retirez le noindex des pages qui doivent apparaître dans les résultats de recherche.'],
  blocked_by_robots: ['Allow these URLs in robots.txt if they should be crawled, or stop linking to them.', 'Autorisez ces URL dans le robots.txt si elles doivent être explorées, ou cessez d’y faire des liens.'],
  orphan_page: ['Link to these pages from relevant pages, or remove them from the sitemap.', 'Faites des liens vers ces pages depuis des pages pertinentes, ou retirez-les du sitemap.'],
  deep_page: ['Bring these pages closer to the home page (menus, categories, internal links).', 'Rapprochez ces pages de l’accueil (menus, catégories, liens internes).'],
  dead_end_page: ['Add links from these pages to related content.', 'Ajoutez sur ces pages des liens vers des contenus liés.'],
  meta_robots_in_body: ['Move the meta robots tag into the <head>.', 'Déplacez la balise meta robots dans le <head>.'],
  canonical_to_error: ['Point the canonical at a page that answers 200.', 'Faites pointer la canonique vers une page qui répond 200.'],
  canonical_to_redirect: ['Point the canonical at the final URL of the redirect.', 'Faites pointer la canonique vers l’URL finale de la redirection.'],
  canonical_to_noindex: ['Point the canonical at an indexable page, or remove the noindex.', 'Faites pointer la canonique vers une page indexable, ou retirez le noindex.'],
  canonical_chain: ['Make every canonical point directly at the final, self-canonical page.', 'Faites pointer chaque canonique directement vers la page finale, elle-même canonique.'],
  canonical_conflict: ['Keep a single canonical, identical in the HTML and the HTTP header.', 'Gardez une seule canonique, identique dans le HTML et l’en-tête HTTP.'],
  canonical_relative: ['Write canonical URLs in absolute form (https://…).', 'Écrivez les URL canoniques en absolu (https://…).'],
  canonical_invalid: ['Point the canonical at the page’s own public http(s) URL, written in full.', 'Faites pointer la canonique vers l’URL http(s) publique de la page, écrite en entier.'],
  canonical_in_body: ['Move <link rel="canonical"> into <head>: search engines ignore it in <body>.', 'Déplacez <link rel="canonical"> dans le <head> : les moteurs l’ignorent dans le <body>.'],
  robots_txt_5xx: ['Make robots.txt answer 200 (or 404): while it fails, search engines crawl nothing.', 'Faites répondre le robots.txt en 200 (ou 404) : tant qu’il échoue, les moteurs n’explorent rien.'],
  robots_txt_missing: ['Publish a robots.txt at the root of the site.', 'Publiez un robots.txt à la racine du site.'],
  sitemap_missing: ['Publish an XML sitemap listing the indexable pages.', 'Publiez un sitemap XML listant les pages indexables.'],
  sitemap_not_in_robots: ['Declare the sitemap in robots.txt with a Sitemap: line.', 'Déclarez le sitemap dans le robots.txt avec une ligne Sitemap:.'],
  sitemap_bad_url: ['List only indexable, canonical URLs answering 200 in the sitemap.', 'Ne listez dans le sitemap que des URL indexables, canoniques et répondant 200.'],
  title_missing: ['Give every page a unique, descriptive <title>.', 'Donnez à chaque page un <title> unique et descriptif.'],
  title_duplicate: ['Write a distinct title for each page.', 'Rédigez un titre distinct pour chaque page.'],
  title_too_long: ['Shorten titles to about 60 characters, key words first.', 'Raccourcissez les titres à environ 60 caractères, mots clés en tête.'],
  title_too_short: ['Lengthen titles so they describe the page (20 to 60 characters).', 'Allongez les titres pour décrire la page (20 à 60 caractères).'],
  title_multiple: ['Keep a single <title> tag per page.', 'Gardez une seule balise <title> par page.'],
  description_missing: ['Write a meta description that makes people want to click.', 'Rédigez une meta description qui donne envie de cliquer.'],
  description_duplicate: ['Write a distinct meta description for each page.', 'Rédigez une meta description distincte pour chaque page.'],
  description_too_short: ['Lengthen meta descriptions to 70–160 characters.', 'Allongez les meta descriptions à 70–160 caractères.'],
  description_too_long: ['Shorten meta descriptions to at most 160 characters.', 'Raccourcissez les meta descriptions à 160 caractères au plus.'],
  h1_missing: ['Give each page one h1 stating its subject.', 'Donnez à chaque page un h1 qui annonce son sujet.'],
  h1_multiple: ['Keep one h1 and turn the others into h2.', 'Gardez un seul h1 et transformez les autres en h2.'],
  heading_skip: ['Nest headings in order (h1, h2, h3) without skipping levels.', 'Imbriquez les titres dans l’ordre (h1, h2, h3) sans sauter de niveau.'],
  thin_content: ['Enrich these pages with useful content, or merge or noindex them.', 'Enrichissez ces pages d’un contenu utile, ou fusionnez-les ou passez-les en noindex.'],
  duplicate_content: ['Keep one version: redirect or canonicalise the copies.', 'Gardez une seule version : redirigez les copies ou donnez-leur une canonique.'],
  near_duplicate_content: ['Differentiate these pages or point them to a single canonical.', 'Différenciez ces pages ou faites-les pointer vers une canonique unique.'],
  lang_missing: ['Declare the page language on <html lang="…">.', 'Déclarez la langue de la page sur <html lang="…">.'],
  lang_invalid: ['Use a valid language code in the lang attribute (fr, en-GB…).', 'Utilisez un code de langue valide dans l’attribut lang (fr, en-GB…).'],
  viewport_missing: ['Add <meta name="viewport" content="width=device-width, initial-scale=1">.', 'Ajoutez <meta name="viewport" content="width=device-width, initial-scale=1">.'],
  html_too_large: ['Reduce the HTML (inline scripts, styles, repeated markup).', 'Allégez le HTML (scripts et styles en ligne, balisage répété).'],
  duplicate_id: ['Make every id attribute unique within the page.', 'Rendez chaque attribut id unique dans la page.'],
  too_many_links: ['Keep the links that matter; trim menus and footers.', 'Gardez les liens utiles ; allégez menus et pieds de page.'],
  internal_nofollow: ['Remove nofollow from internal links.', 'Retirez le nofollow des liens internes.'],
  image_missing_alt: ['Describe each meaningful image in its alt attribute (alt="" for decoration).', 'Décrivez chaque image porteuse de sens dans son attribut alt (alt="" pour la décoration).'],
  image_alt_too_long: ['Keep alt texts short (under 100 characters).', 'Gardez des textes alternatifs courts (moins de 100 caractères).'],
  image_too_large: ['Compress and resize images; serve WebP or AVIF.', 'Compressez et redimensionnez les images ; servez du WebP ou de l’AVIF.'],
  broken_image: ['Restore the image at its URL or update the src/srcset that names it.', 'Rétablissez l’image à son URL ou corrigez le src/srcset qui la nomme.'],
  image_missing_dimensions: ['Set width and height on images to avoid layout shifts.', 'Indiquez largeur et hauteur des images pour éviter les décalages de mise en page.'],
  hreflang_no_return: ['Add the return hreflang link on each alternate page.', 'Ajoutez le lien hreflang de retour sur chaque page alternative.'],
  hreflang_bad_target: ['Point hreflang only at canonical URLs answering 200.', 'Ne faites pointer hreflang que vers des URL canoniques répondant 200.'],
  hreflang_no_x_default: ['Add an x-default hreflang for visitors of other languages.', 'Ajoutez un hreflang x-default pour les visiteurs d’autres langues.'],
  hreflang_no_self: ['Include a hreflang pointing at the page itself.', 'Incluez un hreflang qui pointe vers la page elle-même.'],
  slow_response: ['Speed up the server (caching, database queries, hosting) below 800 ms.', 'Accélérez le serveur (cache, requêtes, hébergement) sous les 800 ms.'],
  not_compressed: ['Enable gzip or Brotli compression for HTML.', 'Activez la compression gzip ou Brotli du HTML.'],
  hsts_missing: ['Send a Strict-Transport-Security header on HTTPS.', 'Envoyez un en-tête Strict-Transport-Security en HTTPS.'],
  form_to_http: ['Make forms submit to HTTPS URLs.', 'Faites envoyer les formulaires vers des URL HTTPS.'],
  lighthouse_mobile_slow: ['Work on mobile performance: lighter images and scripts, fewer render-blocking resources.', 'Travaillez la performance mobile : images et scripts plus légers, moins de ressources bloquantes.'],
  render_failed: ['Check that the page loads in a browser without errors or endless requests.', 'Vérifiez que la page se charge dans un navigateur sans erreur ni requêtes sans fin.'],
  jsonld_invalid: ['Fix the JSON-LD syntax (validate it with the Rich Results Test).', 'Corrigez la syntaxe du JSON-LD (validez-le avec le test des résultats enrichis).'],
  og_missing: ['Add og:title, og:description and og:image for link previews.', 'Ajoutez og:title, og:description et og:image pour les aperçus de liens.'],
  ai_search_agent_blocked: ['Allow AI search and answer agents in robots.txt so the site can be cited in AI answers.', 'Autorisez les agents de recherche et de réponse IA dans le robots.txt pour que le site soit cité dans les réponses IA.'],
  ai_training_crawler_blocked: ['A legitimate choice; allow these crawlers only if the content may train AI models.', 'Un choix légitime ; n’autorisez ces robots que si le contenu peut servir à entraîner des modèles IA.'],
  llms_txt_missing: ['Publish an llms.txt summarising the site for AI agents.', 'Publiez un llms.txt qui résume le site pour les agents IA.'],
  llms_txt_no_h1: ['Start llms.txt with an H1 line (# Site name).', 'Commencez le llms.txt par une ligne H1 (# Nom du site).'],
};

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
  const own = CHECK_FIXES[name];
  if (own) return own[index(language)];
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

/** What to do about a low scorecard axis that has no check of its own; undefined for category axes. */
export function axisFix(key: string, language: Language): string | undefined {
  return AXIS_FIXES[key]?.[index(language)];
}
