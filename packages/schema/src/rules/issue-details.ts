/**
 * Issue details in the reader's language (docs/decisions/issue-details-language.md).
 *
 * The crawler stores each occurrence's `details` as English text built from a template
 * (`status 404`, `link to https://…: redirect loop`, `115 words`). Until it stores a structured
 * detail (a template key and its values), answers and reports translate the text of every known
 * template here: the values (URLs, numbers, tags, lists) are kept as they are, the words around
 * them are the reader's. A text no template matches is returned unchanged.
 *
 * English is the stored language: `localiseIssueDetails(text, 'en')` is the text itself, except
 * for a network or browser failure (`fetch_failed`, `render_failed`): the crawler stores the
 * library's own message after its type (`dns: getaddrinfo ENOTFOUND shop.example`), which both
 * languages read as a sentence followed by that raw text (`host name not found (dns: getaddrinfo
 * ENOTFOUND shop.example)`), so the code stays visible for whoever has to fix it.
 */
import type { Language } from '../errors.js';

type Translate = (text: string) => string;
/** A text in English and in French. */
type Both = readonly [en: string, fr: string];
/** An English template, anchored, and its French rendering from the captured values. */
type Rule = readonly [RegExp, (m: RegExpExecArray, t: Translate) => string];

/** What two duplicate pages share (site-audit.ts, reportGroups). */
const WHAT: Record<string, string> = { title: 'titre', 'meta description': 'méta-description', 'main text': 'texte principal', content: 'contenu' };
const unreadAnchorsFr = (n: string | undefined) => (n ? ` (et ${n} autre(s) lien(s) vide(s) ou génériques au-delà des 5000 lus par page, non résolus)` : '');

/** Scripts a page's text is written in (crawler/page/page-language.ts SCRIPTS), as lang_mismatch names them. */
const SCRIPT_FR: Record<string, string> = {
  'Latin script': 'alphabet latin',
  'Chinese characters': 'caractères chinois',
  'Japanese kana': 'kana japonais',
  'Korean Hangul': 'hangeul coréen',
  'Cyrillic script': 'alphabet cyrillique',
  'Greek script': 'alphabet grec',
  'Arabic script': 'alphabet arabe',
  'Hebrew script': 'alphabet hébreu',
  'Thai script': 'alphabet thaï',
  'Devanagari script': 'devanagari',
};

/** Resource types (crawler/html-resources.ts), as the details of resource checks name them. */
const RESOURCE: Record<string, string> = {
  stylesheet: 'feuille de style',
  icon: 'icône',
  manifest: 'manifeste',
  preload: 'préchargement',
  script: 'script',
  image: 'image',
  media: 'média',
  frame: 'cadre',
  object: 'objet',
};
const RESOURCE_TYPE = '(stylesheet|icon|manifest|preload|script|image|media|frame|object)';
/** `script https://…, image https://… (+2)`: each type named in French. */
const resourceList = (text: string) => text.replace(new RegExp(`(^|, )${RESOURCE_TYPE} `, 'g'), (_m, sep: string, type: string) => `${sep}${RESOURCE[type]} `);

/**
 * Why a request or a rendering failed: the crawler's error types (crawler/http.ts
 * FetchErrorType) and the renderer's codes (rendering/renderer.ts), in both languages.
 */
const FAILURE_TYPES: Record<string, Both> = {
  timeout: ['no answer in time', 'pas de réponse dans le délai'],
  dns: ['the host name could not be resolved', "le nom d'hôte n'a pas pu être résolu"],
  connection: ['the connection failed', 'la connexion a échoué'],
  tls: ['the secure connection (TLS) failed', 'la connexion sécurisée (TLS) a échoué'],
  protocol: ['the server did not answer valid HTTP', "le serveur n'a pas répondu en HTTP valide"],
  address_refused: ['the address is private, which this server does not crawl', "l'adresse est privée, ce serveur ne l'explore pas"],
  crashed: ['the browser crashed while rendering the page', 'le navigateur a planté pendant le rendu de la page'],
  navigation: ['the browser could not load the page', "le navigateur n'a pas pu charger la page"],
  render_error: ['the browser could not render the page', "le navigateur n'a pas pu effectuer le rendu de la page"],
  closed: ['the browser was closed before the end of the rendering', 'le navigateur a été fermé avant la fin du rendu'],
};
const FAILURE_TYPE = `(${Object.keys(FAILURE_TYPES).join('|')})`;

/**
 * What a library's message says, more precisely than its type: Node's system error codes
 * (getaddrinfo, connect), undici's messages, OpenSSL's certificate errors and Chromium's
 * `net::ERR_*` codes. The first match wins.
 */
const FAILURE_MESSAGES: readonly (readonly [RegExp, Both])[] = [
  [/\bENOTFOUND\b|ERR_NAME_NOT_RESOLVED/, ['host name not found', "nom d'hôte introuvable"]],
  [/\bEAI_AGAIN\b/, ['the host name could not be resolved for now (DNS server unavailable)', "le nom d'hôte n'a pas pu être résolu pour l'instant (serveur DNS indisponible)"]],
  [/\bECONNREFUSED\b|ERR_CONNECTION_REFUSED/, ['connection refused by the server', 'connexion refusée par le serveur']],
  [/\bECONNRESET\b|ERR_CONNECTION_RESET|socket hang up/, ['connection reset by the server', 'connexion interrompue par le serveur']],
  [/\bEHOSTUNREACH\b|ERR_ADDRESS_UNREACHABLE/, ['host unreachable', 'hôte injoignable']],
  [/\bENETUNREACH\b|ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED/, ['network unreachable', 'réseau injoignable']],
  [/\bETIMEDOUT\b|ERR_TIMED_OUT|ERR_CONNECTION_TIMED_OUT|Connect Timeout Error/, ['the connection timed out', 'délai de connexion dépassé']],
  [/Headers Timeout Error/, ['no response headers in time', "pas d'en-têtes de réponse dans le délai"]],
  [/Body Timeout Error/, ['the body did not arrive in time', "le corps de la réponse n'est pas arrivé dans le délai"]],
  [/aborted due to timeout|Timeout \d+ ?ms exceeded/, ['no answer in time', 'pas de réponse dans le délai']],
  [/other side closed|UND_ERR_SOCKET|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE/, ['connection closed by the server before the answer', "connexion fermée par le serveur avant la réponse"]],
  [/certificate has expired|CERT_HAS_EXPIRED|ERR_CERT_DATE_INVALID/, ['the certificate has expired', 'le certificat a expiré']],
  [/self[- ]signed certificate|SELF_SIGNED_CERT|ERR_CERT_AUTHORITY_INVALID/, ['the certificate is not signed by a recognised authority', "le certificat n'est pas signé par une autorité reconnue"]],
  [/unable to verify the first certificate|UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to get local issuer certificate/, ['the certificate chain is incomplete', 'la chaîne de certificats est incomplète']],
  [/altnames|ERR_TLS_CERT_ALTNAME_INVALID|ERR_CERT_COMMON_NAME_INVALID/, ['the certificate is for another host name', "le certificat est celui d'un autre nom d'hôte"]],
  [/ERR_SSL_|wrong version number|handshake failure/i, ['the TLS handshake failed', 'la négociation TLS a échoué']],
  [/^Parse Error|HPE_/, ['the answer is not valid HTTP', "la réponse n'est pas du HTTP valide"]],
];

const side = (both: Both, language: Language) => both[language === 'en' ? 0 : 1];

/** A failure's sentence in `language`, followed by the stored raw text. */
function failure(type: string, message: string, language: Language): string {
  const precise = FAILURE_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
  return side(precise ?? FAILURE_TYPES[type], language);
}

/** Failures the crawler stores with the library's message: rendered in both languages. */
const FAILURES: readonly (readonly [RegExp, (m: RegExpExecArray, language: Language) => string])[] = [
  // fetch_failed (crawler/redirects.ts), render_failed (crawler/browser-pass.ts)
  [new RegExp(`^${FAILURE_TYPE}: (.*)$`, 's'), (m, l) => `${failure(m[1], m[2], l)} (${m[0]})`],
  // fetch_failed after the headers (crawler/page-stage.ts)
  [
    new RegExp(`^${FAILURE_TYPE} while reading the body: (.*)$`, 's'),
    (m, l) => `${failure(m[1], m[2], l)}${l === 'en' ? ' while reading the body' : ' pendant la lecture du corps'} (${m[1]}: ${m[2]})`,
  ],
];

function failureDetails(text: string, language: Language): string | null {
  for (const [pattern, render] of FAILURES) {
    const m = pattern.exec(text);
    if (m) return render(m, language);
  }
  return null;
}

/** Reasons that appear inside other details (why a link is broken, why a sitemap URL is bad…). */
const REASONS: readonly Rule[] = [
  [/^redirect loop$/, () => 'boucle de redirection'],
  [/^a redirect loop$/, () => 'une boucle de redirection'],
  [/^no response$/, () => 'aucune réponse'],
  [/^too many redirects$/, () => 'trop de redirections'],
  [/^redirects to a page answering nothing$/, () => 'redirige vers une page qui ne répond pas'],
  [/^redirects to a page answering (\d+)$/, (m) => `redirige vers une page qui répond ${m[1]}`],
  [/^redirects \(status (\d+)\)$/, (m) => `redirige (statut ${m[1]})`],
  [/^status (\d+)$/, (m) => `statut ${m[1]}`],
  [/^blocked by robots\.txt$/, () => 'bloquée par robots.txt'],
  [/^noindex$/, () => 'noindex'],
  [/^not canonical$/, () => 'non canonique'],
  [/^is not canonical$/, () => "n'est pas canonique"],
  [/^does not link back$/, () => 'ne renvoie pas de lien'],
  [/^answers (.+)$/s, (m, t) => `répond ${t(m[1])}`],
  [/^nothing$/, () => 'rien'],
  // A link whose target failed: the crawler names only the type (crawler/external-checks.ts).
  [new RegExp(`^${FAILURE_TYPE}$`), (m) => `${FAILURE_TYPES[m[1]][1]} (${m[1]})`],
  [/^empty href$/, () => 'href vide'],
  [/^"(.*)" is not a URL$/s, (m) => `"${m[1]}" n'est pas une URL`],
  [/^([a-z][a-z0-9+.-]*) URL (\S+)$/, (m) => `URL ${m[1]} ${m[2]}`],
  [/^(\S+) cannot be crawled$/, (m) => `${m[1]} ne peut pas être explorée`],
];

const RULES: readonly Rule[] = [
  // Links, redirects, statuses
  [/^link to (\S+): (.+)$/s, (m, t) => `lien vers ${m[1]} : ${t(m[2])}`],
  [/^rel="(next|prev)" to (\S+): (.+)$/s, (m, t) => `rel="${m[1]}" vers ${m[2]} : ${t(m[3])}`],
  [/^(\d{3}) to (\S+)$/, (m) => `${m[1]} vers ${m[2]}`],
  [/^more than (\d+) redirects: (.+)$/s, (m) => `plus de ${m[1]} redirections : ${m[2]}`],
  [/^(\d+) hops: (.+)$/s, (m) => `${m[1]} sauts : ${m[2]}`],
  // Security and transport
  [/^served over plain HTTP$/, () => 'servie en HTTP non chiffré'],
  [/^(\d+) HTTP resource\(s\): (.+)$/s, (m) => `${m[1]} ressource(s) HTTP : ${m[2]}`],
  [/^(\d+) HTTP resource\(s\) \(([^)]*)\): (.+)$/s, (m) => `${m[1]} ressource(s) HTTP (${m[2].replace(new RegExp(`(\\d+) ${RESOURCE_TYPE}`, 'g'), (_x, n: string, type: string) => `${n} ${RESOURCE[type]}`)}) : ${resourceList(m[3])}`],
  // Resources a page loads (crawler/resources.ts)
  [new RegExp(`^${RESOURCE_TYPE} (\\S+)(?: \\(redirects to (\\S+)\\))? is disallowed by robots\\.txt for (\\S+)$`), (m) => `${RESOURCE[m[1]]} ${m[2]}${m[3] ? ` (redirige vers ${m[3]})` : ''} interdite par robots.txt pour ${m[4]}`],
  [new RegExp(`^${RESOURCE_TYPE} (\\S+) redirects \\(status (\\d+)\\) to (\\S+)$`), (m) => `${RESOURCE[m[1]]} ${m[2]} redirige (statut ${m[3]}) vers ${m[4]}`],
  [new RegExp(`^${RESOURCE_TYPE} (\\S+): redirects to (\\S+), which answers (\\d+)$`), (m) => `${RESOURCE[m[1]]} ${m[2]} : redirige vers ${m[3]}, qui répond ${m[4]}`],
  [new RegExp(`^${RESOURCE_TYPE} (\\S+): redirects to (\\S+), then (.+)$`, 's'), (m, t) => `${RESOURCE[m[1]]} ${m[2]} : redirige vers ${m[3]}, puis ${t(m[4])}`],
  [new RegExp(`^${RESOURCE_TYPE} (\\S+): (.+)$`, 's'), (m, t) => `${RESOURCE[m[1]]} ${m[2]} : ${t(m[3])}`],
  [/^(\d+) distinct resources checked; those first met from this page on were not requested$/, (m) => `${m[1]} ressources distinctes vérifiées ; celles rencontrées à partir de cette page n'ont pas été demandées`],
  [/^no Strict-Transport-Security header$/, () => "pas d'en-tête Strict-Transport-Security"],
  [/^no Content-Encoding$/, () => 'pas de Content-Encoding'],
  [/^form posts to (.+)$/s, (m) => `formulaire envoyé à ${m[1]}`],
  [/^(\d+) ms$/, (m) => `${m[1]} ms`],
  // Indexing
  [/^meta refresh to (\S+)$/, (m) => `meta refresh vers ${m[1]}`],
  [/^meta refresh after ([\d.]+) s to (\S+), read as a temporary redirect$/, (m) => `meta refresh après ${m[1]} s vers ${m[2]}, lu comme une redirection temporaire`],
  [/^redirects \(meta refresh\)$/, () => 'redirige (meta refresh)'],
  [/^canonical (\S+) redirects \(meta refresh\)$/, (m) => `la canonique ${m[1]} redirige (meta refresh)`],
  [/^meta robots: (.+)$/s, (m) => `meta robots : ${m[1]}`],
  [/^X-Robots-Tag: (.+)$/s, (m) => `X-Robots-Tag : ${m[1]}`],
  [/^meta robots found inside <body>, where search engines may ignore it$/, () => 'meta robots placée dans le <body>, où les moteurs de recherche peuvent l’ignorer'],
  [/^meta robots nofollow on the page$/, () => 'meta robots nofollow sur la page'],
  [/^disallowed for (.+)$/s, (m) => `interdite pour ${m[1]}`],
  [/^robots\.txt is unreachable: everything is disallowed$/, () => 'robots.txt est injoignable : tout est interdit'],
  [/^status (\d+): robots\.txt unreachable, so everything is disallowed$/, (m) => `statut ${m[1]} : robots.txt injoignable, donc tout est interdit`],
  [/^robots\.txt answers (\d+)$/, (m) => `robots.txt répond ${m[1]}`],
  [/^(\S+) is disallowed$/, (m) => `${m[1]} est interdit`],
  // Each sitemap with its status, or `(no response)` (crawler/site-files.ts).
  [/^robots\.txt lists sitemaps that cannot be read: (.+)$/s, (m) => `robots.txt cite des sitemaps illisibles : ${m[1].replace(/ \(no response\)(?=, |$)/g, ' (aucune réponse)')}`],
  [/^(\S+) exists but robots\.txt has no Sitemap line$/, (m) => `${m[1]} existe mais robots.txt n'a pas de ligne Sitemap`],
  [/^no Sitemap line in robots\.txt and (\S+) answers (.+)$/s, (m, t) => `pas de ligne Sitemap dans robots.txt et ${m[1]} répond ${t(m[2])}`],
  [/^listed in the sitemap, no internal link points to it$/, () => 'listée dans le sitemap, aucun lien interne ne pointe vers elle'],
  [/^listed in (\S+), no internal link points to it \((\d+) such page\(s\) in that sitemap\)$/, (m) => `listée dans ${m[1]}, aucun lien interne ne pointe vers elle (${m[2]} page(s) dans ce cas dans ce sitemap)`],
  [/^listed in (\S+), linked only from pages no link from the start reaches \((\d+) such page\(s\) in that sitemap\)$/, (m) => `listée dans ${m[1]}, liée seulement depuis des pages qu’aucun lien depuis le départ n’atteint (${m[2]} page(s) dans ce cas dans ce sitemap)`],
  [/^not in a sitemap, linked only from pages no link from the start reaches \((\d+) such page\(s\)\)$/, (m) => `absente des sitemaps, liée seulement depuis des pages qu’aucun lien depuis le départ n’atteint (${m[1]} page(s) dans ce cas)`],
  [/^listed in the sitemap: (.+)$/s, (m, t) => `listée dans le sitemap : ${t(m[1])}`],
  [/^llms\.txt answers an HTML page$/, () => 'llms.txt répond par une page HTML'],
  [/^llms\.txt answers (\d+)$/, (m) => `llms.txt répond ${m[1]}`],
  [/^the file does not start with a "# Title" line$/, () => 'le fichier ne commence pas par une ligne "# Titre"'],
  // Canonicals
  [/^canonical ignored: (.+)$/s, (m, t) => `canonique ignorée : ${t(m[1])}`],
  [/^<link rel="canonical" href="(.*)"> in <body>, where search engines ignore it$/s, (m) => `<link rel="canonical" href="${m[1]}"> dans le <body>, où les moteurs de recherche l’ignorent`],
  [/^several canonicals: (.+)$/s, (m) => `plusieurs canoniques : ${m[1]}`],
  [/^HTML canonical (\S+) but Link header (\S+)$/, (m) => `canonique HTML ${m[1]} mais en-tête Link ${m[2]}`],
  [/^canonical href "(.*)"$/s, (m) => `href canonique "${m[1]}"`],
  [/^canonical (\S+) answers (.+)$/s, (m, t) => `la canonique ${m[1]} répond ${t(m[2])}`],
  [/^canonical (\S+) redirects \(status (\d+)\)$/, (m) => `la canonique ${m[1]} redirige (statut ${m[2]})`],
  [/^canonical (\S+) is noindex$/, (m) => `la canonique ${m[1]} est en noindex`],
  [/^canonical loop: (\S+) points back here$/, (m) => `boucle de canoniques : ${m[1]} renvoie ici`],
  [/^canonical chain: (\S+) → (\S+)$/, (m) => `chaîne de canoniques : ${m[1]} → ${m[2]}`],
  // Titles, descriptions, headings, content
  [/^empty <title>$/, () => '<title> vide'],
  [/^no <title>$/, () => 'pas de <title>'],
  [/^(\d+) <title> tags$/, (m) => `${m[1]} balises <title>`],
  [/^(\d+) characters$/, (m) => `${m[1]} caractères`],
  [/^(\d+) characters, (\d+) half-widths \(a Chinese, Japanese or Korean character counts as two\)$/, (m) => `${m[1]} caractères, ${m[2]} demi-chasses (un caractère chinois, japonais ou coréen compte double)`],
  [/^empty meta description$/, () => 'méta-description vide'],
  [/^no meta description$/, () => 'pas de méta-description'],
  [/^no <h1>$/, () => 'pas de <h1>'],
  [/^(\d+) <h1> tags$/, (m) => `${m[1]} balises <h1>`],
  [/^h(\d) followed by h(\d)$/, (m) => `h${m[1]} suivi de h${m[2]}`],
  [/^(\d+) words?$/, (m) => `${m[1]} mots`],
  [/^no lang on <html>$/, () => "pas d'attribut lang sur <html>"],
  [/^no <meta name="viewport">$/, () => 'pas de <meta name="viewport">'],
  [/^(\d+) KB of HTML, read up to the crawl's HTML limit$/, (m) => `${m[1]} Ko de HTML, lus jusqu'à la limite HTML du crawl`],
  [/^(\d+) KB of HTML$/, (m) => `${m[1]} Ko de HTML`],
  [/^duplicate id: (.+)$/s, (m) => `id en double : ${m[1]}`],
  [/^(\d+) JSON-LD block\(s\) do not parse$/, (m) => `${m[1]} bloc(s) JSON-LD illisible(s)`],
  [/^missing (.+)$/s, (m) => `absent : ${m[1]}`],
  [/^same (title|meta description|main text|content) as (\d+) other page\(s\), e\.g\. (\S+?)( \(compared ignoring case: the values differ only by case\))?$/, (m) => `même ${WHAT[m[1]]} que ${m[2]} autre(s) page(s), par exemple ${m[3]}${m[4] ? ' (comparaison sans tenir compte de la casse : les valeurs ne diffèrent que par la casse)' : ''}`],
  [/^similar \(≥ ([\d.]+)%\) to (\d+) page\(s\), e\.g\. (\S+)$/, (m) => `similaire (≥ ${m[1]} %) à ${m[2]} page(s), par exemple ${m[3]}`],
  // Links and images
  [/^click depth (\d+)$/, (m) => `profondeur de clic ${m[1]}`],
  [/^no outgoing links$/, () => 'aucun lien sortant'],
  [/^(\d+) links$/, (m) => `${m[1]} liens`],
  [/^(\d+) nofollow internal link\(s\): (.+)$/s, (m) => `${m[1]} lien(s) interne(s) en nofollow : ${m[2]}`],
  [/^(\d+) image\(s\) without alt: (.+)$/s, (m) => `${m[1]} image(s) sans alt : ${m[2]}`],
  [/^(\d+) image\(s\): (.+)$/s, (m) => `${m[1]} image(s) : ${m[2]}`],
  [/^(\d+) KB, used on (\S+)$/, (m) => `${m[1]} Ko, utilisée sur ${m[2]}`],
  // International
  [/^no hreflang="x-default"$/, () => 'pas de hreflang="x-default"'],
  [/^the page does not list itself$/, () => 'la page ne se cite pas elle-même'],
  [/^hreflang (\S+) → (\d+) URLs: (.+)$/s, (m) => `hreflang ${m[1]} → ${m[2]} URL : ${m[3]}`],
  [/^hreflang (\S+) → (\S+) (.+)$/s, (m, t) => `hreflang ${m[1]} → ${m[2]} ${t(m[3])}`],
  // The deeper catalogue (check-details.ts)
  [/^uppercase letters in (.+)$/s, (m) => `majuscules dans ${m[1]}`],
  [/^underscores in (.+)$/s, (m) => `tirets bas dans ${m[1]}`],
  [/^spaces in (.+)$/s, (m) => `espaces dans ${m[1]}`],
  [/^non-ASCII characters in (.+)$/s, (m) => `caractères non ASCII dans ${m[1]}`],
  [/^(\d+) parameters: (.+)$/s, (m) => `${m[1]} paramètres : ${m[2]}`],
  [/^session parameter (.+)$/s, (m) => `paramètre de session ${m[1]}`],
  [/^(\S+) answers (\d+) without redirecting to HTTPS$/, (m) => `${m[1]} répond ${m[2]} sans rediriger vers HTTPS`],
  [/^(\d+) internal link\(s\) to HTTP: (.+)$/s, (m) => `${m[1]} lien(s) interne(s) vers HTTP : ${m[2]}`],
  [/^answers 200 with the title "(.*)"$/s, (m) => `répond 200 avec le titre "${m[1]}"`],
  [/^conflicting directives: (.+)$/s, (m) => `directives contradictoires : ${m[1]}`],
  [/^unknown directive\(s\): (.+)$/s, (m) => `directive(s) inconnue(s) : ${m[1]}`],
  [/^noindex, canonical (\S+)$/, (m) => `noindex, canonique ${m[1]}`],
  [/^a single internal page links here$/, () => 'une seule page interne fait un lien ici'],
  [/^(\d+) nofollow link\(s\) to indexable pages: (.+)$/s, (m) => `${m[1]} lien(s) en nofollow vers des pages indexables : ${m[2]}`],
  [/^page-level nofollow on (\d+) link\(s\) to indexable pages: (.+)$/s, (m) => `nofollow au niveau de la page sur ${m[1]} lien(s) vers des pages indexables : ${m[2]}`],
  [/^no canonical$/, () => 'pas de canonique'],
  [/^canonical (\S+) is on another host$/, (m) => `la canonique ${m[1]} est sur un autre hôte`],
  [/^canonical (\S+) is HTTP$/, (m) => `la canonique ${m[1]} est en HTTP`],
  [/^indexable, not listed in the sitemap$/, () => 'indexable, absente du sitemap'],
  [/^(\S+): (\d+) URLs$/, (m) => `${m[1]} : ${m[2]} URL`],
  [/^(\S+): over 50 MB uncompressed$/, (m) => `${m[1]} : plus de 50 Mo non compressé`],
  [/^(\S+) answers (\d+) but is not a sitemap document$/, (m) => `${m[1]} répond ${m[2]} mais n'est pas un document de sitemap`],
  [/^(\d+) URL\(s\) of another host, e\.g\. (\S+)$/, (m) => `${m[1]} URL d'un autre hôte, par exemple ${m[2]}`],
  [/^(\d+) meta descriptions$/, (m) => `${m[1]} méta-descriptions`],
  [/^empty <h1>$/, () => '<h1> vide'],
  [/^placeholder text: "(.*)"$/s, (m) => `texte de remplissage : "${m[1]}"`],
  [/^no charset in Content-Type nor <meta charset>$/, () => 'pas de charset dans Content-Type ni de <meta charset>'],
  [/^(\d+) link\(s\) without text: (.+?)(?: \(and (\d+) more empty or generic link\(s\) past the 5000 read per page, not resolved\))?$/s, (m) => `${m[1]} lien(s) sans texte : ${m[2]}${unreadAnchorsFr(m[3])}`],
  [/^(\d+) link\(s\) with generic text: (.+?)(?: \(and (\d+) more empty or generic link\(s\) past the 5000 read per page, not resolved\))?$/s, (m) => `${m[1]} lien(s) au texte générique : ${m[2]}${unreadAnchorsFr(m[3])}`],
  [/^invalid hreflang "(.*)"$/s, (m) => `hreflang invalide "${m[1]}"`],
  [/^lang="([^"]*)" but (\d+)% of the text's letters are (Latin script|Chinese characters|Japanese kana|Korean Hangul|Cyrillic script|Greek script|Arabic script|Hebrew script|Thai script|Devanagari script)$/, (m) => `lang="${m[1]}" mais ${m[2]} % des lettres du texte sont en ${SCRIPT_FR[m[3]]}`],
  [/^lang="([^"]*)" but the text's (\d+) Chinese characters come with no kana$/, (m) => `lang="${m[1]}" mais les ${m[2]} caractères chinois du texte ne sont accompagnés d'aucun kana`],
  [/^lang="([^"]*)" but (\d+)% of the text's Chinese characters are kana$/, (m) => `lang="${m[1]}" mais ${m[2]} % des caractères chinois du texte sont des kana`],
  [/^(\d+) language versions, no hreflang: (.+)$/s, (m) => `${m[1]} versions linguistiques, aucun hreflang : ${m[2].replace(/ page\(s\), e\.g\. /g, ' page(s), par exemple ')}`],
  [/^(\d+) of (\d+) language versions without hreflang \(annotated: ([^)]*)\): (.+)$/s, (m) => `${m[1]} versions linguistiques sur ${m[2]} sans hreflang (annotées : ${m[3]}) : ${m[4].replace(/ page\(s\), e\.g\. /g, ' page(s), par exemple ')}`],
  [/^no (X-Content-Type-Options|Content-Security-Policy|Referrer-Policy) header$/, (m) => `pas d'en-tête ${m[1]}`],
  [/^no X-Frame-Options nor CSP frame-ancestors$/, () => 'ni X-Frame-Options ni frame-ancestors (CSP)'],
  [/^og:image "(.*)" is not an absolute URL$/s, (m) => `og:image "${m[1]}" n'est pas une URL absolue`],
  [/^no <meta name="twitter:card">$/, () => 'pas de <meta name="twitter:card">'],
  [/^([A-Za-z]+) without (.+)$/s, (m) => `${m[1]} sans ${m[2].replace(/ \| /g, ' | ')}`],
  // PageSpeed (post-processing)
  [/^mobile performance score ([\d.]+) \(under (\d+)\), measured with (.+)$/s, (m) => `score de performance mobile ${m[1]} (sous ${m[2]}), mesuré avec ${m[3]}`],
];

function translate(rules: readonly Rule[], text: string): string | null {
  for (const [pattern, render] of rules) {
    const m = pattern.exec(text);
    if (m) return render(m, french);
  }
  return null;
}

function french(text: string): string {
  return failureDetails(text, 'fr') ?? translate(RULES, text) ?? translate(REASONS, text) ?? text;
}

/**
 * An occurrence's `details` in `language`: the stored English text, or its French rendering when
 * it follows a known template (unchanged otherwise); a failure as a sentence in either language.
 * Null stays null.
 */
export function localiseIssueDetails<T extends string | null | undefined>(details: T, language: Language): T {
  if (typeof details !== 'string' || details === '') return details;
  if (language === 'en') return (failureDetails(details, 'en') ?? details) as T;
  return french(details) as T;
}

/** Whether a stored detail follows a template this module translates (used by tests). */
export function isKnownIssueDetail(details: string): boolean {
  return failureDetails(details, 'fr') !== null || translate(RULES, details) !== null || translate(REASONS, details) !== null;
}
