/**
 * Issue details in the reader's language (docs/decisions/issue-details-language.md): one example
 * of every template the crawler writes, as it writes it, must come out in French with none of
 * the English words around the values, and unchanged in English.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_DETAILS as D } from '../../src/rules/check-details.js';
import { isKnownIssueDetail, localiseIssueDetails } from '../../src/rules/issue-details.js';

const U = 'https://www.example.com/blog/missing-post';
const V = 'https://www.example.com/about';

/** One detail per template, with its nested reasons, as the crawler writes them today. */
const EXAMPLES = [
  `link to ${U}: status 404`,
  `link to ${U}: redirect loop`,
  `link to ${U}: no response`,
  `link to ${U}: redirects to a page answering 410`,
  `link to ${U}: redirects to a page answering nothing`,
  `link to ${U}: redirects (status 301)`,
  `link to ${U}: too many redirects`,
  `link to ${U}: timeout`,
  `link to ${U}: dns`,
  `link to ${U}: tls`,
  `302 to ${V}`,
  `more than 10 redirects: ${U} → ${V}`,
  `3 hops: ${U} → ${V} → ${U}/x`,
  'served over plain HTTP',
  `2 HTTP resource(s): ${U}.js, ${V}.css`,
  `3 HTTP resource(s) (1 stylesheet, 2 image): stylesheet ${U}.css, image ${V}.png (+1)`,
  `stylesheet ${U}.css: status 404`,
  `image ${U}.png: redirects to ${V}.png, which answers 404`,
  `script ${U}.js: redirects to ${V}.js, then timeout`,
  `script ${U}.js: redirect loop`,
  `icon ${U}.ico redirects (status 301) to ${V}.ico`,
  `manifest ${U}.json (redirects to ${V}.json) is disallowed by robots.txt for siteauditbot`,
  '20000 distinct resources checked; those first met from this page on were not requested',
  'no Strict-Transport-Security header',
  'no Content-Encoding',
  `form posts to ${U}`,
  '1234 ms',
  `meta refresh to ${V}`,
  'meta robots: noindex, nofollow',
  'X-Robots-Tag: noindex',
  'meta robots found inside <body>, where search engines may ignore it',
  'meta robots nofollow on the page',
  'disallowed for siteauditbot',
  'robots.txt is unreachable: everything is disallowed',
  'status 503: robots.txt unreachable, so everything is disallowed',
  'robots.txt answers 404',
  'GPTBot is disallowed',
  `robots.txt lists sitemaps that cannot be read: ${U}.xml`,
  `robots.txt lists sitemaps that cannot be read: ${U}.xml (404), ${V}.xml (no response)`,
  `${U}/sitemap.xml exists but robots.txt has no Sitemap line`,
  `no Sitemap line in robots.txt and ${U}/sitemap.xml answers 404`,
  `no Sitemap line in robots.txt and ${U}/sitemap.xml answers nothing`,
  'listed in the sitemap, no internal link points to it',
  'listed in the sitemap: blocked by robots.txt',
  'listed in the sitemap: not canonical',
  'listed in the sitemap: status 404',
  'listed in the sitemap: noindex',
  'llms.txt answers an HTML page',
  'llms.txt answers 404',
  'the file does not start with a "# Title" line',
  'canonical ignored: empty href',
  'canonical ignored: "::" is not a URL',
  `canonical ignored: ftp URL ftp://example.com/x`,
  `canonical ignored: ${U} cannot be crawled`,
  `<link rel="canonical" href="${U}"> in <body>, where search engines ignore it`,
  `several canonicals: ${U}, ${V}`,
  `HTML canonical ${U} but Link header ${V}`,
  'canonical href "/about"',
  `canonical ${U} answers status 404`,
  `canonical ${U} answers a redirect loop`,
  `canonical ${U} redirects (status 301)`,
  `canonical ${U} is noindex`,
  `canonical loop: ${U} points back here`,
  `canonical chain: ${U} → ${V}`,
  'empty <title>',
  'no <title>',
  '2 <title> tags',
  '72 characters',
  'empty meta description',
  'no meta description',
  'no <h1>',
  '2 <h1> tags',
  'h1 followed by h3',
  '115 words',
  'no lang on <html>',
  'no <meta name="viewport">',
  "812 KB of HTML, read up to the crawl's HTML limit",
  '812 KB of HTML',
  'duplicate id: main, nav (+2)',
  '2 JSON-LD block(s) do not parse',
  'missing og:title, og:image',
  `same title as 3 other page(s), e.g. ${U}`,
  `same title as 3 other page(s), e.g. ${U} (compared ignoring case: the values differ only by case)`,
  `same meta description as 1 other page(s), e.g. ${U}`,
  `same main text as 2 other page(s), e.g. ${U}`,
  `similar (≥ 90%) to 2 page(s), e.g. ${U}`,
  'click depth 6',
  `2 link(s) with generic text: "here" → ${U}, "more" → ${V} (and 3 more empty or generic link(s) past the 5000 read per page, not resolved)`,
  'no outgoing links',
  `redirects (meta refresh)`,
  `canonical ${U} redirects (meta refresh)`,
  '312 links',
  `2 nofollow internal link(s): ${U}, ${V}`,
  `3 image(s) without alt: ${U}.png`,
  `3 image(s): ${U}.png`,
  `412 KB, used on ${U}`,
  'no hreflang="x-default"',
  'the page does not list itself',
  `hreflang de → ${U} is not canonical`,
  `hreflang de → ${U} answers status 404`,
  `hreflang de → ${U} does not link back`,
  `hreflang de → ${U} redirects (meta refresh)`,
  'mobile performance score 42 (under 50), measured with lighthouse',
  // The deeper catalogue's templates (check-details.ts), one example each.
  ...deeperCatalogueExamples(),
  D.nofollowToIndexable(1, [U], true),
];

/** One example of every CHECK_DETAILS template: a template added there without its French fails here. */
function deeperCatalogueExamples(): string[] {
  const examples: Record<keyof typeof D, string> = {
    urlUppercase: D.urlUppercase('/Blog/Post'),
    refreshDelayed: D.refreshDelayed(3, U),
    orphanListed: D.orphanListed(`${U}/sitemap.xml`, 12, true),
    orphanLinked: D.orphanLinked(3),
    urlUnderscores: D.urlUnderscores('/blog/my_post'),
    urlSpaces: D.urlSpaces('/blog/my%20post'),
    urlNonAscii: D.urlNonAscii('/blog/café'),
    urlLength: D.urlLength(131),
    urlParameters: D.urlParameters(['a', 'b', 'c', 'd']),
    urlSessionId: D.urlSessionId('PHPSESSID'),
    redirectHop: D.redirectHop(301, V),
    httpNotRedirected: D.httpNotRedirected('http://www.example.com/', 200),
    internalLinksToHttp: D.internalLinksToHttp(['http://www.example.com/a', 'http://www.example.com/b']),
    soft404: D.soft404('Page not found'),
    robotsConflict: D.robotsConflict(['index', 'noindex']),
    robotsUnknown: D.robotsUnknown(['no-index']),
    xRobotsTag: D.xRobotsTag('noarchive'),
    metaRobots: D.metaRobots('nosnippet'),
    noindexWithCanonical: D.noindexWithCanonical(V),
    singleInlink: D.singleInlink(),
    internalNofollow: D.internalNofollow(4, [U, V], false),
    nofollowToIndexable: D.nofollowToIndexable(5, [U, V, `${V}/team`], false),
    canonicalMissing: D.canonicalMissing(),
    canonicalCrossDomain: D.canonicalCrossDomain('https://other.example/about'),
    canonicalToHttp: D.canonicalToHttp('http://www.example.com/about'),
    sitemapEntry: D.sitemapEntry('redirects (status 301)'),
    notInSitemap: D.notInSitemap(),
    sitemapTooManyUrls: D.sitemapTooManyUrls(`${U}.xml`, 50001),
    sitemapTooManyBytes: D.sitemapTooManyBytes(`${U}.xml`),
    sitemapInvalid: D.sitemapInvalid(`${U}.xml`, 200),
    sitemapForeign: D.sitemapForeign(3, 'https://cdn.example/a'),
    descriptionMultiple: D.descriptionMultiple(2),
    h1Empty: D.h1Empty(),
    h1Length: D.h1Length(84),
    placeholder: D.placeholder('Lorem ipsum'),
    charsetMissing: D.charsetMissing(),
    anchorsEmpty: D.anchorsEmpty([U, V]),
    anchorsGeneric: D.anchorsGeneric([{ text: 'click here', url: U }]),
    hreflangInvalid: D.hreflangInvalid('en-UK'),
    hreflangDuplicate: D.hreflangDuplicate('fr', [U, V]),
    lengthWide: D.lengthWide(13, 20),
    langMismatchScript: D.langMismatchScript('en', 92, 'han'),
    langMismatchNoKana: D.langMismatchNoKana('ja', 540),
    langMismatchKana: D.langMismatchKana('zh-cn', 31),
    hreflangMissing: D.hreflangMissing([
      { lang: 'en', pages: 62, example: U },
      { lang: 'ja', pages: 61, example: V },
    ]),
    hreflangPartial: D.hreflangPartial([{ lang: 'ja', pages: 15, example: V }], 3, ['en', 'fr']),
    headerMissing: D.headerMissing('Content-Security-Policy'),
    frameProtectionMissing: D.frameProtectionMissing(),
    ogImageRelative: D.ogImageRelative('/share.png'),
    twitterCardMissing: D.twitterCardMissing(),
    schemaIncomplete: D.schemaIncomplete('Product', ['offers | review | aggregateRating']),
  };
  return Object.values(examples);
}

/** English words of the templates; French shares none of them as a whole word. */
const ENGLISH = new Set(
  ('the and of with without word words link links status served plain missing characters followed redirect redirects answer answers no not is to on ' +
    'for by empty several same similar listed points back here loop chain hops more than used exists has line does start file while reading body header ' +
    'found inside where search engines may ignore disallowed unreachable everything lists cannot read ignored tags block parse other depth outgoing ' +
    'measured under itself list uppercase letters underscores spaces parameters without redirecting conflicting unknown ' +
    'internal canonical host uncompressed another generic invalid absolute nor single level').split(' '),
);

/** The English words left in a text, as whole words (accented letters are letters). */
function english(text: string): string[] {
  return text.split(/[^\p{L}]+/u).filter((w) => ENGLISH.has(w.toLowerCase()));
}

function withoutValues(text: string): string {
  return text
    .replace(/https?:\/\/\S+|ftp:\/\/\S+/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/\b(og:\w+|noindex|nofollow|siteauditbot|GPTBot|X-Robots-Tag|Strict-Transport-Security|Content-Encoding|Link|robots\.txt|llms\.txt|JSON-LD|HTML|HTTP|KB|ms|meta robots|meta refresh|href|hreflang|lighthouse|main|nav|timeout|aborted|ftp|de|fr|en-UK|PHPSESSID|Product|offers|review|aggregateRating|index|noarchive|nosnippet|Content-Security-Policy|X-Frame-Options|CSP|frame-ancestors|charset|Content-Type|og:image|twitter:card|Lorem ipsum|URL|HTTPS|URLs|no-index)\b/g, ' ');
}

/**
 * Failures as the crawler stores them (`fetch_failed`, `render_failed`): the type, then the
 * library's message. Each reads as a sentence in either language, the raw text kept after it.
 */
const FAILURES: [stored: string, en: string, fr: string][] = [
  ['dns: getaddrinfo ENOTFOUND shop.example', 'host name not found', "nom d'hôte introuvable"],
  ['dns: getaddrinfo EAI_AGAIN shop.example', 'the host name could not be resolved for now (DNS server unavailable)', "le nom d'hôte n'a pas pu être résolu pour l'instant (serveur DNS indisponible)"],
  ['connection: connect ECONNREFUSED 203.0.113.7:443', 'connection refused by the server', 'connexion refusée par le serveur'],
  ['connection: read ECONNRESET', 'connection reset by the server', 'connexion interrompue par le serveur'],
  ['connection: other side closed', 'connection closed by the server before the answer', 'connexion fermée par le serveur avant la réponse'],
  ['connection: connect EHOSTUNREACH 203.0.113.7:443', 'host unreachable', 'hôte injoignable'],
  ['connection: something else went wrong', 'the connection failed', 'la connexion a échoué'],
  ['timeout: Headers Timeout Error', 'no response headers in time', "pas d'en-têtes de réponse dans le délai"],
  ['timeout: Connect Timeout Error (attempted address: shop.example:443, timeout: 10000ms)', 'the connection timed out', 'délai de connexion dépassé'],
  ['timeout: The operation was aborted due to timeout', 'no answer in time', 'pas de réponse dans le délai'],
  ['tls: certificate has expired', 'the certificate has expired', 'le certificat a expiré'],
  ['tls: self-signed certificate', 'the certificate is not signed by a recognised authority', "le certificat n'est pas signé par une autorité reconnue"],
  ['tls: unable to verify the first certificate', 'the certificate chain is incomplete', 'la chaîne de certificats est incomplète'],
  ["tls: Hostname/IP does not match certificate's altnames: Host: shop.example. is not in the cert's altnames: DNS:other.example", 'the certificate is for another host name', "le certificat est celui d'un autre nom d'hôte"],
  ['protocol: Parse Error: Invalid header value char', 'the answer is not valid HTTP', "la réponse n'est pas du HTTP valide"],
  ['navigation: page.goto: net::ERR_NAME_NOT_RESOLVED at https://shop.example/', 'host name not found', "nom d'hôte introuvable"],
  ['timeout: page.goto: Timeout 20000ms exceeded.', 'no answer in time', 'pas de réponse dans le délai'],
  ['crashed: Target page, context or browser has been closed', 'the browser crashed while rendering the page', 'le navigateur a planté pendant le rendu de la page'],
  ['render_error: Execution context was destroyed', 'the browser could not render the page', "le navigateur n'a pas pu effectuer le rendu de la page"],
];

describe('failures in the reader’s language', () => {
  it.each(FAILURES)('%s', (stored, en, fr) => {
    expect(isKnownIssueDetail(stored)).toBe(true);
    expect(localiseIssueDetails(stored, 'en')).toBe(`${en} (${stored})`);
    expect(localiseIssueDetails(stored, 'fr')).toBe(`${fr} (${stored})`);
  });

  it('a failure while reading the body says so in each language, the raw text kept', () => {
    const stored = 'timeout while reading the body: Body Timeout Error';
    expect(localiseIssueDetails(stored, 'en')).toBe('the body did not arrive in time while reading the body (timeout: Body Timeout Error)');
    expect(localiseIssueDetails(stored, 'fr')).toBe("le corps de la réponse n'est pas arrivé dans le délai pendant la lecture du corps (timeout: Body Timeout Error)");
  });

  it('a link whose target failed names the failure in French, its type kept', () => {
    expect(localiseIssueDetails(`link to ${U}: dns`, 'fr')).toBe(`lien vers ${U} : le nom d'hôte n'a pas pu être résolu (dns)`);
    expect(localiseIssueDetails(`link to ${U}: dns`, 'en')).toBe(`link to ${U}: dns`);
  });
});

describe('localiseIssueDetails', () => {
  it.each(EXAMPLES)('translates %s', (details) => {
    expect(isKnownIssueDetail(details)).toBe(true);
    const fr = localiseIssueDetails(details, 'fr');
    if (details !== '1234 ms') expect(fr).not.toBe(details);
    expect(english(withoutValues(fr))).toEqual([]);
    // The values are kept: every URL of the English text is in the French one.
    for (const url of details.match(/https?:\/\/[^\s,>"]+/g) ?? []) expect(fr).toContain(url.replace(/:$/, ''));
  });

  it('keeps the stored text in English, and null and unknown texts as they are', () => {
    for (const details of EXAMPLES) expect(localiseIssueDetails(details, 'en')).toBe(details);
    expect(localiseIssueDetails(null, 'fr')).toBeNull();
    expect(localiseIssueDetails('Ensure images have alternate text', 'fr')).toBe('Ensure images have alternate text');
  });

  it('renders the examples of issue #28 in French', () => {
    expect(localiseIssueDetails('served over plain HTTP', 'fr')).toBe('servie en HTTP non chiffré');
    expect(localiseIssueDetails('115 words', 'fr')).toBe('115 mots');
    expect(localiseIssueDetails(`link to ${U}: status 404`, 'fr')).toBe(`lien vers ${U} : statut 404`);
  });
});
