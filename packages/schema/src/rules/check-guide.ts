/**
 * Why each check of the catalogue matters and how to fix it, in both languages: the reports' fix
 * advice, the API reference's check list and docs/checks.md (generated: scripts/checks-doc.ts)
 * all read it here. Thresholds come from check-thresholds.ts, so the texts quote the values the
 * crawler applies.
 */
import { THRESHOLDS as T } from './check-thresholds.js';
import type { CheckName } from './issue-catalogue.js';

export interface CheckGuide {
  why: { fr: string; en: string };
  fix: { fr: string; en: string };
}

export const CHECK_GUIDE: Record<CheckName, CheckGuide> = {
  http_5xx: {
    why: { en: `Visitors and search engines get an error instead of the page; repeated 5xx make search engines crawl less and drop the URL.`, fr: `Visiteurs et moteurs reçoivent une erreur au lieu de la page ; des 5xx répétées font ralentir l’exploration et retirer l’URL de l’index.` },
    fix: { en: `Find why the server fails on these URLs (logs, timeouts, crashes) and make them answer 200.`, fr: `Trouvez pourquoi le serveur échoue sur ces URL (logs, délais, plantages) et faites-les répondre 200.` },
  },
  http_4xx: {
    why: { en: `A page that answers 4xx is not indexed and wastes the links pointing to it.`, fr: `Une page en 4xx n’est pas indexée et perd la valeur des liens qui y mènent.` },
    fix: { en: `Restore these pages, redirect them (301) to their closest equivalent, or remove the links to them.`, fr: `Rétablissez ces pages, redirigez-les (301) vers leur équivalent le plus proche, ou retirez les liens qui y mènent.` },
  },
  fetch_failed: {
    why: { en: `A page that does not answer in time cannot be read by visitors or crawlers.`, fr: `Une page qui ne répond pas à temps ne peut être lue ni par les visiteurs ni par les robots.` },
    fix: { en: `Check that the server answers within a few seconds and accepts connections under load.`, fr: `Vérifiez que le serveur répond en quelques secondes et accepte les connexions en charge.` },
  },
  broken_internal_link: {
    why: { en: `Broken links lead visitors to dead ends and waste crawl budget.`, fr: `Les liens cassés mènent les visiteurs à des impasses et gaspillent le budget d’exploration.` },
    fix: { en: `Point these links at a live URL or remove them.`, fr: `Faites pointer ces liens vers une URL valide ou supprimez-les.` },
  },
  broken_external_link: {
    why: { en: `Links to vanished pages frustrate visitors and make the page look unmaintained.`, fr: `Les liens vers des pages disparues frustrent les visiteurs et donnent une image de site non entretenu.` },
    fix: { en: `Update or remove links to external pages that no longer exist.`, fr: `Mettez à jour ou supprimez les liens vers des pages externes disparues.` },
  },
  redirect_loop: {
    why: { en: `A loop never reaches a page: browsers show an error and crawlers give up.`, fr: `Une boucle n’aboutit jamais à une page : les navigateurs affichent une erreur et les robots abandonnent.` },
    fix: { en: `Break the loop: make the last redirect point to a page that answers 200.`, fr: `Cassez la boucle : faites pointer la dernière redirection vers une page qui répond 200.` },
  },
  redirect_chain: {
    why: { en: `Each hop adds latency, and search engines stop following after a few.`, fr: `Chaque saut ajoute de la latence, et les moteurs cessent de suivre après quelques-uns.` },
    fix: { en: `Redirect the first URL straight to the final destination.`, fr: `Redirigez la première URL directement vers la destination finale.` },
  },
  link_to_redirect: {
    why: { en: `Linking through a redirect slows visitors and dilutes the signal the link passes.`, fr: `Un lien qui passe par une redirection ralentit la visite et dilue le signal transmis.` },
    fix: { en: `Update internal links to point at the final URL instead of a redirect.`, fr: `Mettez à jour les liens internes pour viser l’URL finale plutôt qu’une redirection.` },
  },
  temporary_redirect: {
    why: { en: `A temporary redirect tells search engines to keep the old URL indexed.`, fr: `Une redirection temporaire dit aux moteurs de garder l’ancienne URL dans l’index.` },
    fix: { en: `Use a permanent redirect (301/308) when the move is permanent.`, fr: `Utilisez une redirection permanente (301/308) quand le déplacement est définitif.` },
  },
  meta_refresh: {
    why: { en: `Meta refresh is slow, confusing for assistive technology and a weaker signal than a 301.`, fr: `Le meta refresh est lent, déroutant pour les technologies d’assistance et un signal plus faible qu’une 301.` },
    fix: { en: `Replace the meta refresh with a server-side 301 redirect.`, fr: `Remplacez la balise meta refresh par une redirection 301 côté serveur.` },
  },
  http_page: {
    why: { en: `Plain HTTP exposes visitors' traffic, browsers mark it “Not secure”, and HTTPS is a ranking signal.`, fr: `Le HTTP en clair expose le trafic des visiteurs, les navigateurs l’affichent « Non sécurisé », et HTTPS est un critère de classement.` },
    fix: { en: `Serve every page over HTTPS and redirect HTTP to HTTPS.`, fr: `Servez toutes les pages en HTTPS et redirigez HTTP vers HTTPS.` },
  },
  mixed_content: {
    why: { en: `Browsers block or warn about HTTP resources on HTTPS pages, breaking scripts and styles.`, fr: `Les navigateurs bloquent ou signalent les ressources HTTP des pages HTTPS, ce qui casse scripts et styles.` },
    fix: { en: `Load every resource of HTTPS pages over HTTPS.`, fr: `Chargez toutes les ressources des pages HTTPS en HTTPS.` },
  },
  redirect_to_http: {
    why: { en: `Sending HTTPS visitors back to HTTP downgrades their security and browsers may refuse it.`, fr: `Renvoyer des visiteurs HTTPS vers HTTP dégrade leur sécurité et les navigateurs peuvent le refuser.` },
    fix: { en: `Redirect to the HTTPS URL instead.`, fr: `Redirigez plutôt vers l’URL HTTPS.` },
  },
  redirect_external: {
    why: { en: `An internal URL leading off the site hands its visitors and link value to another host.`, fr: `Une URL interne qui mène hors du site cède ses visiteurs et la valeur de ses liens à un autre hôte.` },
    fix: { en: `Check the redirect is intended; link to the destination directly, or keep the content on the site.`, fr: `Vérifiez que la redirection est voulue ; faites le lien directement vers la destination, ou gardez le contenu sur le site.` },
  },
  http_not_redirected: {
    why: { en: `Served on both protocols, the site exists twice: duplicate URLs, and visitors typing the domain stay on insecure HTTP.`, fr: `Servi dans les deux protocoles, le site existe deux fois : URL en double, et qui tape le domaine reste en HTTP non sécurisé.` },
    fix: { en: `Redirect every HTTP URL to its HTTPS equivalent with a 301.`, fr: `Redirigez chaque URL HTTP vers son équivalent HTTPS par une 301.` },
  },
  internal_link_to_http: {
    why: { en: `Each such link sends visitors through an HTTP request (or a redirect) and keeps the HTTP URLs alive in the index.`, fr: `Chacun de ces liens fait passer le visiteur par une requête HTTP (ou une redirection) et maintient les URL HTTP dans l’index.` },
    fix: { en: `Write internal links with https:// (or as relative links).`, fr: `Écrivez les liens internes en https:// (ou en liens relatifs).` },
  },
  soft_404: {
    why: { en: `A missing page that answers 200 gets indexed as an empty page instead of being dropped.`, fr: `Une page manquante qui répond 200 est indexée comme une page vide au lieu d’être retirée.` },
    fix: { en: `Make missing pages answer 404 (or 410), or redirect them to a real equivalent.`, fr: `Faites répondre 404 (ou 410) les pages manquantes, ou redirigez-les vers un vrai équivalent.` },
  },
  url_uppercase: {
    why: { en: `URLs are case-sensitive: mixed case invites duplicates and broken links typed by hand.`, fr: `Les URL sont sensibles à la casse : les majuscules favorisent doublons et liens mal saisis.` },
    fix: { en: `Use lowercase URLs and redirect the mixed-case variants.`, fr: `Utilisez des URL en minuscules et redirigez les variantes avec majuscules.` },
  },
  url_underscores: {
    why: { en: `Search engines treat hyphens as word separators, not underscores.`, fr: `Les moteurs lisent le tiret comme séparateur de mots, pas le tiret bas.` },
    fix: { en: `Separate words with hyphens in new URLs; redirect old ones only if you rename them.`, fr: `Séparez les mots par des tirets dans les nouvelles URL ; ne redirigez les anciennes que si vous les renommez.` },
  },
  url_spaces: {
    why: { en: `Spaces must be encoded (%20): links copied or typed by hand break.`, fr: `Les espaces doivent être encodés (%20) : les liens copiés ou saisis à la main se cassent.` },
    fix: { en: `Replace spaces with hyphens and redirect the old URLs.`, fr: `Remplacez les espaces par des tirets et redirigez les anciennes URL.` },
  },
  url_non_ascii: {
    why: { en: `Non-ASCII characters are percent-encoded in links and shares, which makes URLs unreadable and error-prone.`, fr: `Les caractères non ASCII sont encodés en pourcentage dans les liens et partages : URL illisibles et sources d’erreurs.` },
    fix: { en: `Prefer ASCII slugs (transliterate accents) for new URLs.`, fr: `Préférez des slugs ASCII (accents translittérés) pour les nouvelles URL.` },
  },
  url_too_long: {
    why: { en: `Long URLs are truncated in results, hard to share and often a sign of parameter clutter.`, fr: `Les URL longues sont tronquées dans les résultats, difficiles à partager et souvent encombrées de paramètres.` },
    fix: { en: `Shorten URLs to a few meaningful words.`, fr: `Raccourcissez les URL à quelques mots porteurs de sens.` },
  },
  url_many_parameters: {
    why: { en: `Parameter combinations multiply the URLs of one content and waste crawl budget.`, fr: `Les combinaisons de paramètres multiplient les URL d’un même contenu et gaspillent le budget d’exploration.` },
    fix: { en: `Keep parameters for real variations; canonicalise or block the others.`, fr: `Gardez les paramètres pour les vraies variations ; canonisez ou bloquez les autres.` },
  },
  url_session_id: {
    why: { en: `A session id in the URL creates a new URL per visit: endless duplicates, and sessions leaked when links are shared.`, fr: `Un identifiant de session dans l’URL crée une URL par visite : doublons sans fin, et sessions divulguées quand le lien est partagé.` },
    fix: { en: `Keep sessions in cookies, never in URLs.`, fr: `Gardez les sessions dans des cookies, jamais dans les URL.` },
  },
  broken_stylesheet: {
    why: { en: `Without its stylesheet the page renders unstyled for visitors and search engines.`, fr: `Sans sa feuille de style la page s’affiche sans mise en forme pour les visiteurs et les moteurs.` },
    fix: { en: `Restore the stylesheet at its URL or update the <link> that loads it: without it the page renders unstyled.`, fr: `Rétablissez la feuille de style à son URL ou corrigez le <link> qui la charge : sans elle la page s’affiche sans mise en forme.` },
  },
  broken_script: {
    why: { en: `Features that depend on the missing script do not work, and rendered content may be missing.`, fr: `Les fonctions qui dépendent du script manquant ne marchent pas, et du contenu affiché peut manquer.` },
    fix: { en: `Restore the script at its URL or update the <script src> that loads it: features that depend on it are broken.`, fr: `Rétablissez le script à son URL ou corrigez le <script src> qui le charge : les fonctions qui en dépendent sont cassées.` },
  },
  broken_resource: {
    why: { en: `A missing icon, manifest, media or frame shows as a gap or an error in the page.`, fr: `Une icône, un manifeste, un média ou un cadre manquant laisse un trou ou une erreur dans la page.` },
    fix: { en: `Restore the file at its URL or remove the reference (icon, manifest, preload, media, frame or object).`, fr: `Rétablissez le fichier à son URL ou retirez la référence (icône, manifeste, préchargement, média, cadre ou objet).` },
  },
  resource_redirect: {
    why: { en: `Each redirect delays the resource and so the page.`, fr: `Chaque redirection retarde la ressource, donc la page.` },
    fix: { en: `Reference the final URL of the resource directly: each redirect delays the page.`, fr: `Référencez directement l’URL finale de la ressource : chaque redirection retarde la page.` },
  },
  resource_blocked_by_robots: {
    why: { en: `Search engines render the page without resources robots.txt forbids, and may judge it broken or not mobile-friendly.`, fr: `Les moteurs affichent la page sans les ressources interdites par le robots.txt, et peuvent la juger cassée ou non adaptée au mobile.` },
    fix: { en: `Allow the CSS, JavaScript and images pages need in robots.txt, so search engines render pages as visitors see them.`, fr: `Autorisez dans le robots.txt les CSS, JavaScript et images dont les pages ont besoin, pour que les moteurs affichent les pages comme les visiteurs.` },
  },
  resource_budget_reached: {
    why: { en: `Resources past the budget were not checked, so broken ones may be missing from the report.`, fr: `Les ressources au-delà du budget n’ont pas été vérifiées : des ressources cassées peuvent manquer au rapport.` },
    fix: { en: `Resources past the crawl’s budget were not checked: crawl parts of the site separately (include_patterns) to check them all.`, fr: `Les ressources au-delà du budget du crawl n’ont pas été vérifiées : explorez le site par parties (include_patterns) pour toutes les vérifier.` },
  },
  noindex: {
    why: { en: `A noindex page is kept out of search results.`, fr: `Une page en noindex est exclue des résultats de recherche.` },
    fix: { en: `Remove noindex from pages that should appear in search results.`, fr: `Retirez le noindex des pages qui doivent apparaître dans les résultats de recherche.` },
  },
  blocked_by_robots: {
    why: { en: `Search engines cannot read a blocked page; it may still be listed without a description.`, fr: `Les moteurs ne peuvent pas lire une page bloquée ; elle peut quand même être listée sans description.` },
    fix: { en: `Allow these URLs in robots.txt if they should be crawled, or stop linking to them.`, fr: `Autorisez ces URL dans le robots.txt si elles doivent être explorées, ou cessez d’y faire des liens.` },
  },
  orphan_page: {
    why: { en: `A page no link reaches is hard to find for visitors and gets little weight from search engines.`, fr: `Une page qu’aucun lien n’atteint est difficile à trouver et reçoit peu de poids des moteurs.` },
    fix: { en: `Link to these pages from relevant pages, or remove them from the sitemap.`, fr: `Faites des liens vers ces pages depuis des pages pertinentes, ou retirez-les du sitemap.` },
  },
  deep_page: {
    why: { en: `Pages many clicks from the home page are crawled less often and seen as less important.`, fr: `Les pages à de nombreux clics de l’accueil sont explorées moins souvent et jugées moins importantes.` },
    fix: { en: `Bring these pages closer to the home page (menus, categories, internal links).`, fr: `Rapprochez ces pages de l’accueil (menus, catégories, liens internes).` },
  },
  dead_end_page: {
    why: { en: `A page without links stops visitors and crawlers: nothing leads on from it.`, fr: `Une page sans lien arrête visiteurs et robots : rien ne mène plus loin.` },
    fix: { en: `Add links from these pages to related content.`, fr: `Ajoutez sur ces pages des liens vers des contenus liés.` },
  },
  meta_robots_in_body: {
    why: { en: `Search engines may ignore a meta robots tag outside <head>, so the directive may not apply.`, fr: `Les moteurs peuvent ignorer une balise meta robots hors du <head> : la directive risque de ne pas s’appliquer.` },
    fix: { en: `Move the meta robots tag into the <head>.`, fr: `Déplacez la balise meta robots dans le <head>.` },
  },
  robots_conflict: {
    why: { en: `When directives contradict each other search engines apply the most restrictive one, which is rarely what was meant.`, fr: `Quand des directives se contredisent, les moteurs appliquent la plus restrictive, rarement celle voulue.` },
    fix: { en: `Keep one consistent set of directives across meta tags and the X-Robots-Tag header.`, fr: `Gardez un seul jeu de directives cohérent entre balises meta et en-tête X-Robots-Tag.` },
  },
  robots_unknown_directive: {
    why: { en: `A misspelt directive (no-index, noidex) is silently ignored: the page is not restricted as intended.`, fr: `Une directive mal orthographiée (no-index, noidex) est ignorée sans bruit : la page n’est pas restreinte comme prévu.` },
    fix: { en: `Fix the spelling (noindex, nofollow, none, nosnippet…) or remove the directive.`, fr: `Corrigez l’orthographe (noindex, nofollow, none, nosnippet…) ou retirez la directive.` },
  },
  x_robots_tag_directives: {
    why: { en: `Directives in an HTTP header are invisible in the page source and easy to forget when they restrict indexing.`, fr: `Les directives d’un en-tête HTTP sont invisibles dans le source de la page et faciles à oublier quand elles restreignent l’indexation.` },
    fix: { en: `Check the header's directives are intended for these pages.`, fr: `Vérifiez que les directives de l’en-tête sont voulues pour ces pages.` },
  },
  robots_nosnippet: {
    why: { en: `Without a snippet the result shows no description, which usually lowers clicks.`, fr: `Sans extrait, le résultat n’affiche aucune description, ce qui réduit en général les clics.` },
    fix: { en: `Remove nosnippet / max-snippet:0 unless hiding the description is intended.`, fr: `Retirez nosnippet / max-snippet:0, sauf si masquer la description est voulu.` },
  },
  noindex_with_canonical: {
    why: { en: `Noindex and a canonical to another page are contradictory signals: the canonical may pass the noindex on.`, fr: `Noindex et canonique vers une autre page sont des signaux contradictoires : la canonique peut transmettre le noindex.` },
    fix: { en: `Choose: either noindex (with a self canonical or none) or a canonical to the page to index.`, fr: `Choisissez : soit noindex (avec une canonique vers soi ou aucune), soit une canonique vers la page à indexer.` },
  },
  single_inlink: {
    why: { en: `A page reached by a single link depends on it entirely and receives little internal weight.`, fr: `Une page atteinte par un seul lien en dépend entièrement et reçoit peu de poids interne.` },
    fix: { en: `Link to these pages from more relevant pages (categories, related content).`, fr: `Faites des liens vers ces pages depuis d’autres pages pertinentes (catégories, contenus liés).` },
  },
  canonical_to_error: {
    why: { en: `A canonical to a broken page is ignored, and the page's own signals are left unconsolidated.`, fr: `Une canonique vers une page cassée est ignorée, et les signaux de la page ne sont pas consolidés.` },
    fix: { en: `Point the canonical at a page that answers 200.`, fr: `Faites pointer la canonique vers une page qui répond 200.` },
  },
  canonical_to_redirect: {
    why: { en: `Search engines may ignore a canonical that redirects, or pick the wrong URL.`, fr: `Les moteurs peuvent ignorer une canonique qui redirige, ou choisir la mauvaise URL.` },
    fix: { en: `Point the canonical at the final URL of the redirect.`, fr: `Faites pointer la canonique vers l’URL finale de la redirection.` },
  },
  canonical_to_noindex: {
    why: { en: `Pointing to a noindex page asks search engines to index a page that refuses indexing.`, fr: `Pointer vers une page noindex demande aux moteurs d’indexer une page qui refuse l’indexation.` },
    fix: { en: `Point the canonical at an indexable page, or remove the noindex.`, fr: `Faites pointer la canonique vers une page indexable, ou retirez le noindex.` },
  },
  canonical_chain: {
    why: { en: `Search engines do not reliably follow canonical chains; loops cancel the hint.`, fr: `Les moteurs ne suivent pas de façon fiable les chaînes de canoniques ; les boucles annulent l’indication.` },
    fix: { en: `Make every canonical point directly at the final, self-canonical page.`, fr: `Faites pointer chaque canonique directement vers la page finale, elle-même canonique.` },
  },
  canonical_conflict: {
    why: { en: `With several canonicals search engines ignore them all.`, fr: `Avec plusieurs canoniques, les moteurs les ignorent toutes.` },
    fix: { en: `Keep a single canonical, identical in the HTML and the HTTP header.`, fr: `Gardez une seule canonique, identique dans le HTML et l’en-tête HTTP.` },
  },
  canonical_relative: {
    why: { en: `A relative canonical resolves wrongly when the page is reached under another host or path.`, fr: `Une canonique relative se résout mal quand la page est atteinte sous un autre hôte ou chemin.` },
    fix: { en: `Write canonical URLs in absolute form (https://…).`, fr: `Écrivez les URL canoniques en absolu (https://…).` },
  },
  canonical_invalid: {
    why: { en: `A canonical that is not a crawlable URL is ignored.`, fr: `Une canonique qui n’est pas une URL explorable est ignorée.` },
    fix: { en: `Point the canonical at the page’s own public http(s) URL, written in full.`, fr: `Faites pointer la canonique vers l’URL http(s) publique de la page, écrite en entier.` },
  },
  canonical_in_body: {
    why: { en: `Search engines ignore a canonical outside <head>.`, fr: `Les moteurs ignorent une canonique hors du <head>.` },
    fix: { en: `Move <link rel="canonical"> into <head>: search engines ignore it in <body>.`, fr: `Déplacez <link rel="canonical"> dans le <head> : les moteurs l’ignorent dans le <body>.` },
  },
  canonical_missing: {
    why: { en: `Without a canonical, search engines choose between URL variants (parameters, case, slashes) on their own.`, fr: `Sans canonique, les moteurs choisissent seuls entre les variantes d’URL (paramètres, casse, barres obliques).` },
    fix: { en: `Add <link rel="canonical"> with the page's own absolute URL.`, fr: `Ajoutez <link rel="canonical"> avec l’URL absolue de la page elle-même.` },
  },
  canonical_cross_domain: {
    why: { en: `A canonical to another host asks search engines to index that host's page instead of this one.`, fr: `Une canonique vers un autre hôte demande aux moteurs d’indexer la page de cet hôte à la place de celle-ci.` },
    fix: { en: `Check the cross-host canonical is intended (syndication); otherwise point it at this site's URL.`, fr: `Vérifiez que la canonique vers un autre hôte est voulue (syndication) ; sinon faites-la pointer vers l’URL de ce site.` },
  },
  canonical_to_http: {
    why: { en: `A canonical to HTTP asks search engines to index the insecure version of the page.`, fr: `Une canonique HTTP demande aux moteurs d’indexer la version non sécurisée de la page.` },
    fix: { en: `Point the canonical at the HTTPS URL.`, fr: `Faites pointer la canonique vers l’URL HTTPS.` },
  },
  site_unreachable: {
    why: { en: `Neither visitors nor search engines could reach the site when it was crawled: nothing of it could be audited.`, fr: `Ni les visiteurs ni les moteurs ne pouvaient joindre le site au moment du crawl : rien n’a pu en être audité.` },
    fix: { en: `Check the host name (DNS), that the server accepts connections on its port and that its certificate is valid, then crawl again.`, fr: `Vérifiez le nom d’hôte (DNS), que le serveur accepte les connexions sur son port et que son certificat est valide, puis relancez le crawl.` },
  },
  robots_txt_5xx: {
    why: { en: `While robots.txt fails, search engines treat the whole site as disallowed.`, fr: `Tant que le robots.txt échoue, les moteurs considèrent tout le site comme interdit.` },
    fix: { en: `Make robots.txt answer 200 (or 404): while it fails, search engines crawl nothing.`, fr: `Faites répondre le robots.txt en 200 (ou 404) : tant qu’il échoue, les moteurs n’explorent rien.` },
  },
  robots_txt_missing: {
    why: { en: `Without robots.txt there is no place to declare sitemaps or keep crawlers out of useless areas.`, fr: `Sans robots.txt, aucun endroit pour déclarer les sitemaps ou écarter les robots des zones inutiles.` },
    fix: { en: `Publish a robots.txt at the root of the site.`, fr: `Publiez un robots.txt à la racine du site.` },
  },
  sitemap_missing: {
    why: { en: `A sitemap helps search engines find every page, especially deep or new ones.`, fr: `Un sitemap aide les moteurs à trouver toutes les pages, surtout les profondes ou nouvelles.` },
    fix: { en: `Publish an XML sitemap listing the indexable pages.`, fr: `Publiez un sitemap XML listant les pages indexables.` },
  },
  sitemap_not_in_robots: {
    why: { en: `Search engines look for sitemaps in robots.txt; elsewhere they may never find them.`, fr: `Les moteurs cherchent les sitemaps dans le robots.txt ; ailleurs ils peuvent ne jamais les trouver.` },
    fix: { en: `Declare the sitemap in robots.txt with a Sitemap: line.`, fr: `Déclarez le sitemap dans le robots.txt avec une ligne Sitemap:.` },
  },
  sitemap_bad_url: {
    why: { en: `A sitemap listing broken URLs wastes crawls and makes search engines trust it less.`, fr: `Un sitemap qui liste des URL cassées gaspille l’exploration et perd la confiance des moteurs.` },
    fix: { en: `Remove these URLs from the sitemap, or restore the pages.`, fr: `Retirez ces URL du sitemap, ou rétablissez les pages.` },
  },
  sitemap_redirect: {
    why: { en: `A sitemap should list final URLs; redirects waste crawls and blur which URL to index.`, fr: `Un sitemap doit lister les URL finales ; les redirections gaspillent l’exploration et brouillent l’URL à indexer.` },
    fix: { en: `List the redirect's final URL in the sitemap.`, fr: `Listez dans le sitemap l’URL finale de la redirection.` },
  },
  sitemap_noindex: {
    why: { en: `Listing a noindex page asks for indexing and refuses it at once.`, fr: `Lister une page noindex demande l’indexation et la refuse à la fois.` },
    fix: { en: `Remove noindex pages from the sitemap, or remove their noindex.`, fr: `Retirez du sitemap les pages noindex, ou retirez leur noindex.` },
  },
  sitemap_non_canonical: {
    why: { en: `A sitemap is a canonical signal: listing non-canonical URLs contradicts the pages' own canonicals.`, fr: `Un sitemap est un signal de canonique : lister des URL non canoniques contredit les canoniques des pages.` },
    fix: { en: `List only the canonical URL of each page.`, fr: `Ne listez que l’URL canonique de chaque page.` },
  },
  sitemap_blocked: {
    why: { en: `Search engines cannot crawl a URL robots.txt blocks, so listing it is contradictory.`, fr: `Les moteurs ne peuvent pas explorer une URL bloquée par le robots.txt : la lister est contradictoire.` },
    fix: { en: `Remove blocked URLs from the sitemap, or allow them in robots.txt.`, fr: `Retirez du sitemap les URL bloquées, ou autorisez-les dans le robots.txt.` },
  },
  not_in_sitemap: {
    why: { en: `Pages missing from the sitemap are found only through links, later or not at all.`, fr: `Les pages absentes du sitemap ne sont trouvées que par les liens, plus tard ou jamais.` },
    fix: { en: `Add every indexable page to the sitemap (generate it from the site's pages).`, fr: `Ajoutez chaque page indexable au sitemap (générez-le à partir des pages du site).` },
  },
  sitemap_too_large: {
    why: { en: `Search engines ignore what lies past a sitemap's limits (50,000 URLs, 50 MB uncompressed).`, fr: `Les moteurs ignorent ce qui dépasse les limites d’un sitemap (50 000 URL, 50 Mo non compressé).` },
    fix: { en: `Split the sitemap into files under the limits, listed in a sitemap index.`, fr: `Découpez le sitemap en fichiers sous les limites, listés dans un index de sitemaps.` },
  },
  sitemap_invalid: {
    why: { en: `A sitemap that is not a urlset or sitemapindex XML document is rejected by search engines.`, fr: `Un sitemap qui n’est pas un document XML urlset ou sitemapindex est rejeté par les moteurs.` },
    fix: { en: `Serve a valid urlset or sitemapindex XML document (sitemaps.org).`, fr: `Servez un document XML urlset ou sitemapindex valide (sitemaps.org).` },
  },
  sitemap_foreign_url: {
    why: { en: `A sitemap may only list URLs of its own host; search engines drop the others.`, fr: `Un sitemap ne peut lister que des URL de son propre hôte ; les moteurs ignorent les autres.` },
    fix: { en: `List only URLs of the sitemap's own host; give each host its sitemap.`, fr: `Ne listez que des URL de l’hôte du sitemap ; donnez à chaque hôte son sitemap.` },
  },
  title_missing: {
    why: { en: `The title is the headline of the search result; without one search engines make one up.`, fr: `Le titre est l’intitulé du résultat de recherche ; sans lui les moteurs en inventent un.` },
    fix: { en: `Give every page a unique, descriptive <title>.`, fr: `Donnez à chaque page un <title> unique et descriptif.` },
  },
  title_duplicate: {
    why: { en: `Identical titles make pages compete and leave searchers unable to tell them apart.`, fr: `Des titres identiques mettent les pages en concurrence et empêchent de les distinguer.` },
    fix: { en: `Write a distinct title for each page.`, fr: `Rédigez un titre distinct pour chaque page.` },
  },
  title_too_long: {
    why: { en: `Results cut long titles, often before the words that matter.`, fr: `Les résultats coupent les titres longs, souvent avant les mots importants.` },
    fix: { en: `Shorten titles to about ${T.titleMax} characters, key words first.`, fr: `Raccourcissez les titres à environ ${T.titleMax} caractères, mots clés en tête.` },
  },
  title_too_short: {
    why: { en: `A very short title says little about the page and wastes the result's headline.`, fr: `Un titre très court dit peu de la page et gaspille l’intitulé du résultat.` },
    fix: { en: `Lengthen titles so they describe the page (${T.titleMin} to ${T.titleMax} characters).`, fr: `Allongez les titres pour décrire la page (${T.titleMin} à ${T.titleMax} caractères).` },
  },
  title_multiple: {
    why: { en: `With several titles, browsers and search engines may pick the wrong one.`, fr: `Avec plusieurs titres, navigateurs et moteurs peuvent choisir le mauvais.` },
    fix: { en: `Keep a single <title> tag per page.`, fr: `Gardez une seule balise <title> par page.` },
  },
  description_missing: {
    why: { en: `Without a description search engines build the snippet from page text, often poorly.`, fr: `Sans description, les moteurs composent l’extrait à partir du texte, souvent mal.` },
    fix: { en: `Write a meta description that makes people want to click.`, fr: `Rédigez une meta description qui donne envie de cliquer.` },
  },
  description_duplicate: {
    why: { en: `Identical descriptions make distinct pages look the same in results.`, fr: `Des descriptions identiques font paraître identiques des pages distinctes dans les résultats.` },
    fix: { en: `Write a distinct meta description for each page.`, fr: `Rédigez une meta description distincte pour chaque page.` },
  },
  description_too_short: {
    why: { en: `A short description leaves room unused in the result and says little.`, fr: `Une description courte laisse de la place inutilisée dans le résultat et en dit peu.` },
    fix: { en: `Lengthen meta descriptions to ${T.descriptionMin}–${T.descriptionMax} characters.`, fr: `Allongez les meta descriptions à ${T.descriptionMin}–${T.descriptionMax} caractères.` },
  },
  description_too_long: {
    why: { en: `Results cut long descriptions.`, fr: `Les résultats coupent les descriptions longues.` },
    fix: { en: `Shorten meta descriptions to at most ${T.descriptionMax} characters.`, fr: `Raccourcissez les meta descriptions à ${T.descriptionMax} caractères au plus.` },
  },
  description_multiple: {
    why: { en: `With several meta descriptions search engines pick one, not necessarily the intended one.`, fr: `Avec plusieurs meta descriptions, les moteurs en choisissent une, pas forcément la bonne.` },
    fix: { en: `Keep a single meta description per page.`, fr: `Gardez une seule meta description par page.` },
  },
  h1_missing: {
    why: { en: `The h1 tells visitors and search engines what the page is about.`, fr: `Le h1 annonce aux visiteurs et aux moteurs le sujet de la page.` },
    fix: { en: `Give each page one h1 stating its subject.`, fr: `Donnez à chaque page un h1 qui annonce son sujet.` },
  },
  h1_multiple: {
    why: { en: `Several h1 blur the page's main subject.`, fr: `Plusieurs h1 brouillent le sujet principal de la page.` },
    fix: { en: `Keep one h1 and turn the others into h2.`, fr: `Gardez un seul h1 et transformez les autres en h2.` },
  },
  heading_skip: {
    why: { en: `Skipped levels break the outline screen readers and search engines use.`, fr: `Les niveaux sautés cassent le plan qu’utilisent lecteurs d’écran et moteurs.` },
    fix: { en: `Nest headings in order (h1, h2, h3) without skipping levels.`, fr: `Imbriquez les titres dans l’ordre (h1, h2, h3) sans sauter de niveau.` },
  },
  thin_content: {
    why: { en: `Pages with little text rarely answer a search and may be judged low quality.`, fr: `Les pages avec peu de texte répondent rarement à une recherche et peuvent être jugées de faible qualité.` },
    fix: { en: `Enrich these pages with useful content, or merge or noindex them.`, fr: `Enrichissez ces pages d’un contenu utile, ou fusionnez-les ou passez-les en noindex.` },
  },
  duplicate_content: {
    why: { en: `Identical pages compete with each other and split their signals.`, fr: `Des pages identiques se concurrencent et partagent leurs signaux.` },
    fix: { en: `Keep one version: redirect or canonicalise the copies.`, fr: `Gardez une seule version : redirigez les copies ou donnez-leur une canonique.` },
  },
  near_duplicate_content: {
    why: { en: `Nearly identical pages compete and may be filtered out of results.`, fr: `Des pages presque identiques se concurrencent et peuvent être filtrées des résultats.` },
    fix: { en: `Differentiate these pages or point them to a single canonical.`, fr: `Différenciez ces pages ou faites-les pointer vers une canonique unique.` },
  },
  lang_missing: {
    why: { en: `Without lang, screen readers use the wrong voice and browsers offer wrong translations.`, fr: `Sans lang, les lecteurs d’écran prennent la mauvaise voix et les navigateurs proposent de mauvaises traductions.` },
    fix: { en: `Declare the page language on <html lang="…">.`, fr: `Déclarez la langue de la page sur <html lang="…">.` },
  },
  lang_invalid: {
    why: { en: `An invalid language code is ignored.`, fr: `Un code de langue invalide est ignoré.` },
    fix: { en: `Use a valid language code in the lang attribute (fr, en-GB…).`, fr: `Utilisez un code de langue valide dans l’attribut lang (fr, en-GB…).` },
  },
  viewport_missing: {
    why: { en: `Without a viewport, mobile browsers render the desktop layout zoomed out.`, fr: `Sans viewport, les navigateurs mobiles affichent la mise en page bureau en tout petit.` },
    fix: { en: `Add <meta name="viewport" content="width=device-width, initial-scale=1">.`, fr: `Ajoutez <meta name="viewport" content="width=device-width, initial-scale=1">.` },
  },
  html_too_large: {
    why: { en: `Heavy HTML is slow to download and parse, and search engines stop reading past a limit.`, fr: `Un HTML lourd est lent à télécharger et analyser, et les moteurs cessent de lire au-delà d’une limite.` },
    fix: { en: `Reduce the HTML (inline scripts, styles, repeated markup).`, fr: `Allégez le HTML (scripts et styles en ligne, balisage répété).` },
  },
  duplicate_id: {
    why: { en: `Duplicate ids break in-page links, labels and scripts that target them.`, fr: `Les id en double cassent les ancres, les libellés et les scripts qui les ciblent.` },
    fix: { en: `Make every id attribute unique within the page.`, fr: `Rendez chaque attribut id unique dans la page.` },
  },
  h1_empty: {
    why: { en: `An empty h1 announces nothing and confuses screen reader users.`, fr: `Un h1 vide n’annonce rien et déroute les utilisateurs de lecteurs d’écran.` },
    fix: { en: `Give the h1 text (an image inside needs an alt).`, fr: `Donnez du texte au h1 (une image dedans doit avoir un alt).` },
  },
  h1_too_long: {
    why: { en: `A long h1 dilutes the page's subject.`, fr: `Un h1 long dilue le sujet de la page.` },
    fix: { en: `Shorten the h1 to the page's subject.`, fr: `Raccourcissez le h1 au sujet de la page.` },
  },
  placeholder_text: {
    why: { en: `Placeholder text published by mistake looks unfinished and says nothing.`, fr: `Un texte de remplissage publié par erreur fait inachevé et ne dit rien.` },
    fix: { en: `Replace the placeholder with the real content, or unpublish the page.`, fr: `Remplacez le texte de remplissage par le vrai contenu, ou dépubliez la page.` },
  },
  charset_missing: {
    why: { en: `Without a declared encoding, browsers guess and may garble accented characters.`, fr: `Sans encodage déclaré, les navigateurs devinent et peuvent abîmer les caractères accentués.` },
    fix: { en: `Send charset=utf-8 in Content-Type or add <meta charset="utf-8"> first in <head>.`, fr: `Envoyez charset=utf-8 dans Content-Type ou ajoutez <meta charset="utf-8"> en tête du <head>.` },
  },
  too_many_links: {
    why: { en: `Many links dilute the weight each one passes and crowd the page.`, fr: `De nombreux liens diluent le poids transmis par chacun et encombrent la page.` },
    fix: { en: `Keep the links that matter; trim menus and footers.`, fr: `Gardez les liens utiles ; allégez menus et pieds de page.` },
  },
  internal_nofollow: {
    why: { en: `Nofollow on internal links (or for the whole page) withholds internal weight. None of these targets turned out indexable, so it is often deliberate; when one is, the page gets internal_nofollow_to_indexable instead.`, fr: `Le nofollow sur des liens internes (ou pour toute la page) retient le poids interne. Aucune de ces cibles ne s’est révélée indexable, c’est souvent voulu ; quand l’une l’est, la page reçoit internal_nofollow_to_indexable à la place.` },
    fix: { en: `Nothing to do if these targets must stay out of results (their own noindex keeps them out); otherwise remove the nofollow.`, fr: `Rien à faire si ces cibles doivent rester hors des résultats (leur propre noindex les en exclut) ; sinon, retirez le nofollow.` },
  },
  internal_nofollow_to_indexable: {
    why: { en: `Nofollow (on the link or for the whole page) on links to pages the crawl found indexable: your own pages get no weight from them. Reported instead of internal_nofollow, once the targets are crawled.`, fr: `Un nofollow (sur le lien ou pour toute la page) sur des liens vers des pages que l’exploration a trouvées indexables : vos propres pages n’en reçoivent aucun poids. Signalé à la place d’internal_nofollow, une fois les cibles explorées.` },
    fix: { en: `Remove nofollow from these links or from the page's robots directives; to keep a target out of results, give it noindex: nofollow does not.`, fr: `Retirez le nofollow de ces liens ou des directives robots de la page ; pour exclure une cible des résultats, mettez-lui un noindex : le nofollow ne le fait pas.` },
  },
  image_missing_alt: {
    why: { en: `Without alt, screen readers skip the image and search engines do not know what it shows.`, fr: `Sans alt, les lecteurs d’écran ignorent l’image et les moteurs ne savent pas ce qu’elle montre.` },
    fix: { en: `Describe each meaningful image in its alt attribute (alt="" for decoration).`, fr: `Décrivez chaque image porteuse de sens dans son attribut alt (alt="" pour la décoration).` },
  },
  image_alt_too_long: {
    why: { en: `Long alt texts are tedious to hear in screen readers.`, fr: `Les textes alternatifs longs sont pénibles à écouter avec un lecteur d’écran.` },
    fix: { en: `Keep alt texts short (under ${T.altMax} characters).`, fr: `Gardez des textes alternatifs courts (moins de ${T.altMax} caractères).` },
  },
  image_too_large: {
    why: { en: `Heavy images slow the page, above all on mobile.`, fr: `Les images lourdes ralentissent la page, surtout sur mobile.` },
    fix: { en: `Compress and resize images; serve WebP or AVIF.`, fr: `Compressez et redimensionnez les images ; servez du WebP ou de l’AVIF.` },
  },
  broken_image: {
    why: { en: `A broken image leaves a gap in the page.`, fr: `Une image cassée laisse un trou dans la page.` },
    fix: { en: `Restore the image at its URL or update the src/srcset that names it.`, fr: `Rétablissez l’image à son URL ou corrigez le src/srcset qui la nomme.` },
  },
  image_missing_dimensions: {
    why: { en: `Without width and height the layout shifts as images load (CLS).`, fr: `Sans largeur ni hauteur, la mise en page bouge pendant le chargement des images (CLS).` },
    fix: { en: `Set width and height on images to avoid layout shifts.`, fr: `Indiquez largeur et hauteur des images pour éviter les décalages de mise en page.` },
  },
  anchor_text_empty: {
    why: { en: `A link without text tells neither screen readers nor search engines where it leads.`, fr: `Un lien sans texte n’indique ni aux lecteurs d’écran ni aux moteurs où il mène.` },
    fix: { en: `Give each link text, an image alt or an aria-label describing its target.`, fr: `Donnez à chaque lien un texte, un alt d’image ou un aria-label qui décrit sa cible.` },
  },
  anchor_text_generic: {
    why: { en: `“Click here” says nothing about the target; descriptive anchors help visitors and search engines.`, fr: `« Cliquez ici » ne dit rien de la cible ; des ancres descriptives aident visiteurs et moteurs.` },
    fix: { en: `Rewrite the anchor to name the target (“pricing of the Pro plan” rather than “click here”).`, fr: `Réécrivez l’ancre pour nommer la cible (« tarifs de l’offre Pro » plutôt que « cliquez ici »).` },
  },
  hreflang_no_return: {
    why: { en: `Search engines ignore hreflang pairs that are not confirmed from both sides.`, fr: `Les moteurs ignorent les paires hreflang qui ne sont pas confirmées des deux côtés.` },
    fix: { en: `Add the return hreflang link on each alternate page.`, fr: `Ajoutez le lien hreflang de retour sur chaque page alternative.` },
  },
  hreflang_bad_target: {
    why: { en: `Hreflang to a broken or non-canonical URL is ignored.`, fr: `Un hreflang vers une URL cassée ou non canonique est ignoré.` },
    fix: { en: `Point hreflang only at canonical URLs answering 200.`, fr: `Ne faites pointer hreflang que vers des URL canoniques répondant 200.` },
  },
  hreflang_no_x_default: {
    why: { en: `x-default tells search engines which page to show visitors of other languages.`, fr: `x-default indique aux moteurs quelle page montrer aux visiteurs des autres langues.` },
    fix: { en: `Add an x-default hreflang for visitors of other languages.`, fr: `Ajoutez un hreflang x-default pour les visiteurs d’autres langues.` },
  },
  hreflang_no_self: {
    why: { en: `Each page of a hreflang set should list itself, or the set may be ignored.`, fr: `Chaque page d’un ensemble hreflang doit se citer, sinon l’ensemble peut être ignoré.` },
    fix: { en: `Include a hreflang pointing at the page itself.`, fr: `Incluez un hreflang qui pointe vers la page elle-même.` },
  },
  hreflang_invalid_code: {
    why: { en: `Search engines ignore hreflang values that are not ISO 639-1 language (and ISO 3166-1 region) codes.`, fr: `Les moteurs ignorent les valeurs hreflang qui ne sont pas des codes de langue ISO 639-1 (et de région ISO 3166-1).` },
    fix: { en: `Use language codes such as fr, en-GB or x-default.`, fr: `Utilisez des codes de langue comme fr, en-GB ou x-default.` },
  },
  hreflang_duplicate_lang: {
    why: { en: `Two URLs for one language leave search engines to guess which to show.`, fr: `Deux URL pour une même langue laissent les moteurs deviner laquelle montrer.` },
    fix: { en: `Give each language (and region) a single URL.`, fr: `Donnez une seule URL à chaque langue (et région).` },
  },
  hreflang_missing: {
    why: { en: `Without hreflang, search engines may show one language version to readers of another, or treat the versions as duplicates.`, fr: `Sans hreflang, les moteurs peuvent montrer une version linguistique aux lecteurs d’une autre, ou traiter les versions comme des doublons.` },
    fix: { en: `Annotate each page with its language versions (link rel="alternate" hreflang in the head, or xhtml:link in the sitemap), each version listing all the others and itself.`, fr: `Annotez chaque page avec ses versions linguistiques (link rel="alternate" hreflang dans le head, ou xhtml:link dans le sitemap), chaque version citant toutes les autres et elle-même.` },
  },
  lang_mismatch: {
    why: { en: `A wrong lang misleads screen readers, browser translation and spelling tools, and contradicts the page's hreflang.`, fr: `Un lang erroné trompe les lecteurs d’écran, la traduction du navigateur et les correcteurs, et contredit le hreflang de la page.` },
    fix: { en: `Declare the language the page is written in on <html lang> (and in Content-Language), usually in the template of that language version.`, fr: `Déclarez la langue dans laquelle la page est écrite sur <html lang> (et dans Content-Language), en général dans le gabarit de cette version linguistique.` },
  },
  slow_response: {
    why: { en: `Slow server answers delay every page view and reduce how much search engines crawl.`, fr: `Des réponses serveur lentes retardent chaque affichage et réduisent l’exploration des moteurs.` },
    fix: { en: `Speed up the server (caching, database queries, hosting) below ${T.slowMs} ms.`, fr: `Accélérez le serveur (cache, requêtes, hébergement) sous les ${T.slowMs} ms.` },
  },
  not_compressed: {
    why: { en: `Uncompressed HTML takes several times longer to download.`, fr: `Un HTML non compressé met plusieurs fois plus de temps à télécharger.` },
    fix: { en: `Enable gzip or Brotli compression for HTML.`, fr: `Activez la compression gzip ou Brotli du HTML.` },
  },
  hsts_missing: {
    why: { en: `Without HSTS a visitor's first request can be downgraded to HTTP by an attacker.`, fr: `Sans HSTS, la première requête d’un visiteur peut être rabaissée en HTTP par un attaquant.` },
    fix: { en: `Send a Strict-Transport-Security header on HTTPS.`, fr: `Envoyez un en-tête Strict-Transport-Security en HTTPS.` },
  },
  form_to_http: {
    why: { en: `Form data sent over HTTP can be read in transit, and browsers warn about it.`, fr: `Les données d’un formulaire envoyées en HTTP peuvent être lues en chemin, et les navigateurs le signalent.` },
    fix: { en: `Make forms submit to HTTPS URLs.`, fr: `Faites envoyer les formulaires vers des URL HTTPS.` },
  },
  x_content_type_options_missing: {
    why: { en: `Without nosniff, browsers may guess a response's type and run content as script.`, fr: `Sans nosniff, les navigateurs peuvent deviner le type d’une réponse et exécuter du contenu comme script.` },
    fix: { en: `Send X-Content-Type-Options: nosniff.`, fr: `Envoyez X-Content-Type-Options: nosniff.` },
  },
  csp_missing: {
    why: { en: `A Content-Security-Policy limits what an injected script can do (cross-site scripting).`, fr: `Une Content-Security-Policy limite ce que peut faire un script injecté (cross-site scripting).` },
    fix: { en: `Send a Content-Security-Policy (start with Content-Security-Policy-Report-Only to test it).`, fr: `Envoyez une Content-Security-Policy (commencez en Content-Security-Policy-Report-Only pour la tester).` },
  },
  frame_protection_missing: {
    why: { en: `A page any site may frame can be used for clickjacking.`, fr: `Une page que n’importe quel site peut encadrer peut servir au détournement de clic (clickjacking).` },
    fix: { en: `Send Content-Security-Policy: frame-ancestors 'self' (or X-Frame-Options: SAMEORIGIN).`, fr: `Envoyez Content-Security-Policy: frame-ancestors 'self' (ou X-Frame-Options: SAMEORIGIN).` },
  },
  referrer_policy_missing: {
    why: { en: `Without a Referrer-Policy, full URLs (with their parameters) may leak to other sites.`, fr: `Sans Referrer-Policy, les URL complètes (avec leurs paramètres) peuvent fuiter vers d’autres sites.` },
    fix: { en: `Send Referrer-Policy: strict-origin-when-cross-origin.`, fr: `Envoyez Referrer-Policy: strict-origin-when-cross-origin.` },
  },
  lighthouse_mobile_slow: {
    why: { en: `Slow mobile pages lose visitors and weigh on Core Web Vitals.`, fr: `Les pages mobiles lentes perdent des visiteurs et pèsent sur les Core Web Vitals.` },
    fix: { en: `Work on mobile performance: lighter images and scripts, fewer render-blocking resources.`, fr: `Travaillez la performance mobile : images et scripts plus légers, moins de ressources bloquantes.` },
  },
  render_failed: {
    why: { en: `A page a browser cannot render may not be rendered by search engines either.`, fr: `Une page qu’un navigateur ne peut pas afficher risque de ne pas l’être par les moteurs non plus.` },
    fix: { en: `Check that the page loads in a browser without errors or endless requests.`, fr: `Vérifiez que la page se charge dans un navigateur sans erreur ni requêtes sans fin.` },
  },
  jsonld_invalid: {
    why: { en: `JSON-LD that does not parse is ignored: no rich results.`, fr: `Un JSON-LD illisible est ignoré : pas de résultats enrichis.` },
    fix: { en: `Fix the JSON-LD syntax (validate it with the Rich Results Test).`, fr: `Corrigez la syntaxe du JSON-LD (validez-le avec le test des résultats enrichis).` },
  },
  og_missing: {
    why: { en: `Without Open Graph tags, shared links show a poor preview on social networks and messaging apps.`, fr: `Sans balises Open Graph, les liens partagés s’affichent mal sur les réseaux sociaux et messageries.` },
    fix: { en: `Add og:title, og:description and og:image for link previews.`, fr: `Ajoutez og:title, og:description et og:image pour les aperçus de liens.` },
  },
  og_image_not_absolute: {
    why: { en: `Social networks do not resolve a relative og:image: the preview has no picture.`, fr: `Les réseaux sociaux ne résolvent pas un og:image relatif : l’aperçu n’a pas d’image.` },
    fix: { en: `Write og:image as an absolute https:// URL.`, fr: `Écrivez og:image en URL absolue https://.` },
  },
  twitter_card_missing: {
    why: { en: `X (Twitter) needs twitter:card to show a card; it takes the rest from Open Graph.`, fr: `X (Twitter) a besoin de twitter:card pour afficher une carte ; il prend le reste dans Open Graph.` },
    fix: { en: `Add <meta name="twitter:card" content="summary_large_image">.`, fr: `Ajoutez <meta name="twitter:card" content="summary_large_image">.` },
  },
  schema_product_incomplete: {
    why: { en: `Google shows product rich results only with a name and offers, a review or a rating.`, fr: `Google n’affiche de résultats enrichis produit qu’avec un nom et une offre, un avis ou une note.` },
    fix: { en: `Give each Product a name and offers (or review / aggregateRating).`, fr: `Donnez à chaque Product un name et des offers (ou review / aggregateRating).` },
  },
  schema_article_incomplete: {
    why: { en: `Without a headline the article markup gives Google nothing to show.`, fr: `Sans headline, le balisage d’article ne donne rien à afficher à Google.` },
    fix: { en: `Give the Article a headline.`, fr: `Donnez un headline à l’Article.` },
  },
  schema_breadcrumb_incomplete: {
    why: { en: `Google shows the breadcrumb trail only when each item has a position, a name and a URL.`, fr: `Google n’affiche le fil d’Ariane que si chaque élément a une position, un nom et une URL.` },
    fix: { en: `Give each ListItem a position, a name and an item URL (the last may omit item).`, fr: `Donnez à chaque ListItem une position, un name et une URL item (le dernier peut s’en passer).` },
  },
  schema_organization_incomplete: {
    why: { en: `Organization markup without a name cannot feed the knowledge panel.`, fr: `Un balisage Organization sans nom ne peut pas alimenter le panneau de connaissances.` },
    fix: { en: `Give the Organization a name (and url, logo).`, fr: `Donnez un name à l’Organization (et url, logo).` },
  },
  schema_faq_incomplete: {
    why: { en: `FAQ rich results need each question with its name and accepted answer text.`, fr: `Les résultats enrichis FAQ exigent chaque question avec son intitulé et le texte de sa réponse.` },
    fix: { en: `Give each Question a name and an acceptedAnswer with text.`, fr: `Donnez à chaque Question un name et un acceptedAnswer avec text.` },
  },
  schema_event_incomplete: {
    why: { en: `Event rich results require a name, a start date and a location.`, fr: `Les résultats enrichis d’événement exigent un nom, une date de début et un lieu.` },
    fix: { en: `Give each Event a name, a startDate and a location.`, fr: `Donnez à chaque Event un name, une startDate et un location.` },
  },
  schema_recipe_incomplete: {
    why: { en: `Recipe rich results require a name and an image.`, fr: `Les résultats enrichis de recette exigent un nom et une image.` },
    fix: { en: `Give each Recipe a name and an image.`, fr: `Donnez à chaque Recipe un name et une image.` },
  },
  schema_local_business_incomplete: {
    why: { en: `Local business results require a name and an address.`, fr: `Les résultats d’établissement local exigent un nom et une adresse.` },
    fix: { en: `Give the LocalBusiness a name and an address.`, fr: `Donnez un name et une address au LocalBusiness.` },
  },
  ai_search_agent_blocked: {
    why: { en: `Blocked AI search agents cannot cite the site in their answers.`, fr: `Les agents de recherche IA bloqués ne peuvent pas citer le site dans leurs réponses.` },
    fix: { en: `Allow AI search and answer agents in robots.txt so the site can be cited in AI answers.`, fr: `Autorisez les agents de recherche et de réponse IA dans le robots.txt pour que le site soit cité dans les réponses IA.` },
  },
  ai_training_crawler_blocked: {
    why: { en: `The site's content will not be used to train these AI models: a choice to make knowingly.`, fr: `Le contenu du site ne servira pas à entraîner ces modèles IA : un choix à faire en connaissance de cause.` },
    fix: { en: `A legitimate choice; allow these crawlers only if the content may train AI models.`, fr: `Un choix légitime ; n’autorisez ces robots que si le contenu peut servir à entraîner des modèles IA.` },
  },
  llms_txt_missing: {
    why: { en: `llms.txt gives AI agents a summary of the site and its key pages.`, fr: `llms.txt donne aux agents IA un résumé du site et de ses pages clés.` },
    fix: { en: `Publish an llms.txt summarising the site for AI agents.`, fr: `Publiez un llms.txt qui résume le site pour les agents IA.` },
  },
  llms_txt_no_h1: {
    why: { en: `The llms.txt format requires an H1 with the site's name first.`, fr: `Le format llms.txt exige d’abord un H1 avec le nom du site.` },
    fix: { en: `Start llms.txt with an H1 line (# Site name).`, fr: `Commencez le llms.txt par une ligne H1 (# Nom du site).` },
  },
};
