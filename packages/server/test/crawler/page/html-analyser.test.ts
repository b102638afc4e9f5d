import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamingHtmlDecoder } from '../../../src/crawler/fetch/decode.js';
import { HtmlAnalyser, metaRefreshTarget } from '../../../src/crawler/page/html-analyser.js';
import { detectProtection } from '../../../src/crawler/fetch/protection.js';
import { contentHash, fingerprintWords, hammingDistance, simhash64, simhashSimilarity } from '../../../src/crawler/page/text-hash.js';
import { prose } from '../fixture-site.js';

const PAGE = `<!doctype html><html lang="fr-CA"><head>
<meta charset="utf-8"><title> Le   titre &amp; plus </title>
<meta name="description" content="Une description">
<meta name="viewport" content="width=device-width">
<link rel="canonical" href="/canon"><link rel="alternate" hreflang="en" href="/en">
<meta property="og:title" content="OG"><meta property="og:image" content="/i.png">
<script type="application/ld+json">{"@type":"Organization","name":"X"}</script>
<script>var ignored = "not words";</script><style>.a{}</style>
</head><body>
<header><nav><a href="/a">Menu one</a> <a href="/b" rel="nofollow noopener">Menu two</a></nav></header>
<main><h1>Main <b>heading</b></h1><p>Alpha beta gam<i>ma</i> delta.</p>
<h2>Sub</h2><img src="/x.png" alt="x" width="1" height="2"><img src="/y.png">
<form method="post" action="/send"></form></main>
<footer>Foot words</footer></body></html>`;

function analyse(html: string, chunk = html.length) {
  const a = new HtmlAnalyser(['robots']);
  for (let i = 0; i < html.length; i += chunk) a.write(html.slice(i, i + chunk));
  return a.end();
}

describe('streaming HTML analysis', () => {
  it('extracts the page facts', () => {
    const f = analyse(PAGE);
    expect(f.titles).toEqual(['Le titre & plus']);
    expect(f.metaDescriptions).toEqual(['Une description']);
    expect(f.h1).toEqual(['Main heading']);
    expect(f.headings).toEqual([
      { level: 1, text: 'Main heading' },
      { level: 2, text: 'Sub' },
    ]);
    expect(f.lang).toBe('fr-CA');
    expect(f.viewport).toBe('width=device-width');
    expect(f.canonicals).toEqual(['/canon']);
    expect(f.hreflang).toEqual([{ lang: 'en', href: '/en' }]);
    expect(f.og).toEqual({ title: 'OG', description: null, image: '/i.png' });
    expect(JSON.parse(f.jsonLd[0])).toEqual({ '@type': 'Organization', name: 'X' });
    expect(f.links).toEqual([
      { href: '/a', nofollow: false },
      { href: '/b', nofollow: true },
    ]);
    expect(f.images).toEqual([
      { src: '/x.png', alt: 'x', hasWidth: true, hasHeight: true },
      { src: '/y.png', alt: null, hasWidth: false, hasHeight: false },
    ]);
    expect(f.forms).toEqual([{ action: '/send', method: 'post' }]);
    // Words of <main> only (docs/decisions/page-content.md): no menu or footer, no script, style
    // or title text; inline tags do not split words.
    expect(f.wordCount).toBe(7);
    // The fingerprint words come from <main> too.
    expect(f.mainWords).toEqual(['main', 'heading', 'alpha', 'beta', 'gamma', 'delta', 'sub']);
  });

  it('gives the same facts whatever the chunking', () => {
    const whole = analyse(PAGE);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (size) => {
        expect(analyse(PAGE, size)).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it('falls back to the body without boilerplate when there is no <main>', () => {
    const f = analyse('<html><body><nav>menu</nav><p>one two</p><footer>foot</footer></body></html>');
    expect(f.mainWords).toEqual(['one', 'two']);
    expect(f.wordCount).toBe(2);
  });

  it('notes meta robots met in the body, and svg titles are not page titles', () => {
    const f = analyse('<html><head><title>T</title></head><body><svg><title>icon</title></svg><meta name="robots" content="noindex"></body></html>');
    expect(f.titles).toEqual(['T']);
    expect(f.metaRobotsInBody).toBe(true);
  });

  it('a template\'s site-title h1 (header or sidebar outside <main>) is not the page\'s h1 when the page has its own', () => {
    const sphinx = '<body><div role="navigation"><h1 class="logo"><a href="/">Project</a></h1></div><div class="body"><h1>Install</h1><h2>Steps</h2></div></body>';
    expect(analyse(sphinx).h1).toEqual(['Install']);
    const header = '<body><header><h1>Site name</h1></header><main><h1>Article title</h1></main></body>';
    expect(analyse(header).h1).toEqual(['Article title']);
    // An article's own header is the article's; a page whose only h1 is the site title keeps it.
    expect(analyse('<body><main><article><header><h1>Post</h1></header><p>x</p></article></main></body>').h1).toEqual(['Post']);
    expect(analyse('<body><header><h1>Site name</h1></header><main><h2>Section</h2></main></body>').h1).toEqual(['Site name']);
    expect(analyse('<body><h1>One</h1><p>x</p><h1>Two</h1></body>').h1).toEqual(['One', 'Two']);
  });

  it('a sidebar marked only by class (older Sphinx: div.sphinxsidebar, div.related) is navigation outside <main>, an article\'s own sidebar inside it is not', () => {
    const sphinx =
      '<body><div class="related"><h3>Navigation</h3><ul><li><a href="/">index</a></li></ul></div>' +
      '<div class="document"><div class="body"><h1>Install</h1><p>one two</p></div></div>' +
      '<div class="sphinxsidebar"><div class="sphinxsidebarwrapper"><h1 class="logo"><a href="/">Project</a></h1><h3>Table of Contents</h3><h4>Next topic</h4></div></div></body>';
    const f = analyse(sphinx);
    expect(f.h1).toEqual(['Install']);
    expect(f.headings).toEqual([{ level: 1, text: 'Install' }]);
    expect(f.headingSkip).toBeNull();
    expect(f.wordCount).toBe(3);
    const own = analyse('<body><main><h1>Guide</h1><div class="sidebar"><h2>Aside</h2><p>three words here</p></div></main></body>');
    expect(own.headings.map((h) => h.text)).toEqual(['Guide', 'Aside']);
    expect(own.wordCount).toBe(5);
  });

  it('reads meta refresh targets', () => {
    expect(metaRefreshTarget('0; url=/next')).toBe('/next');
    expect(metaRefreshTarget("5;URL='https://x.example/'")).toBe('https://x.example/');
    expect(metaRefreshTarget('30')).toBeNull();
  });

  it('decodes the declared or sniffed charset across chunk boundaries', () => {
    const bytes = Buffer.from('<html><head><meta charset="iso-8859-1"><title>caf\xe9</title></head></html>', 'latin1');
    let text = '';
    const d = new StreamingHtmlDecoder(null, (t) => (text += t));
    for (const b of bytes) d.write(Buffer.from([b]));
    d.end();
    expect(text).toContain('café');
    let utf = '';
    const u = new StreamingHtmlDecoder('utf-8', (t) => (utf += t));
    const e = Buffer.from('é');
    u.write(e.subarray(0, 1));
    u.write(e.subarray(1));
    u.end();
    expect(utf).toBe('é');
  });
});

describe('fingerprints', () => {
  it('hashes main text up to case and punctuation', () => {
    expect(contentHash(fingerprintWords('Hello, World!'))).toEqual(contentHash(fingerprintWords('hello world')));
    expect(contentHash(fingerprintWords('hello world'))).not.toEqual(contentHash(fingerprintWords('hello there')));
  });

  it('splits joined words into their letter and digit runs, lower-cased', () => {
    expect(fingerprintWords("It's a WELL-known l’été fact: 42-ish İstanbul")).toEqual(['it', 's', 'a', 'well', 'known', 'l', 'été', 'fact', '42', 'ish', 'i', 'stanbul']);
  });

  it('gives the same main words whether the page text arrives whole or in many text nodes', () => {
    const text = "Don't miss our well-known Crème brûlée: 3-step recipe, tested 12 times. ".repeat(40);
    const whole = new HtmlAnalyser();
    whole.write(`<html><body><main><p>${text}</p></main></body></html>`);
    const split = new HtmlAnalyser();
    split.write('<html><body><main><p>');
    for (const chunk of text.match(/.{1,7}/gs)!) split.write(chunk);
    split.write('</p></main></body></html>');
    const expected = fingerprintWords(text);
    expect(whole.end().mainWords).toEqual(expected);
    expect(split.end().mainWords).toEqual(expected);
  });

  it('puts a word-order change far enough to tell, and leaves one text identical to itself', () => {
    const words = fingerprintWords(prose('order', 60));
    expect(simhash64(words)).toEqual(simhash64([...words]));
    expect(simhash64(words)).not.toEqual(simhash64([...words].reverse()));
  });

  it('keeps the simhashes stored crawls were compared with: the words hashed as before, both halves at once', () => {
    // The formula the stored simhashes were made with: Murmur3 (32-bit) of each word per seed, a
    // shingle's feature the murmur of its three word hashes, bits set by majority.
    const round = (h: number, code: number) => {
      let k = Math.imul(code, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, 0x1b873593);
      h ^= k;
      h = (h << 13) | (h >>> 19);
      return (Math.imul(h, 5) + 0xe6546b64) | 0;
    };
    const final = (h: number, length: number) => {
      h ^= length;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      return h >>> 0;
    };
    const murmur = (text: string, seed: number) => {
      let h = seed | 0;
      for (let i = 0; i < text.length; i++) h = round(h, text.charCodeAt(i));
      return final(h, text.length);
    };
    const reference = (words: string[]) => {
      if (words.length === 0) return null;
      const features: [number, number][] =
        words.length < 3
          ? words.map((w) => [murmur(w, 0x9747b28c), murmur(w, 0x5bd1e995)])
          : words.slice(2).map((_, i) => {
              const [a, b, c] = words.slice(i, i + 3);
              const half = (seed: number) => final(round(round(round(seed | 0, murmur(a, seed) | 0), murmur(b, seed) | 0), murmur(c, seed) | 0), 3);
              return [half(0x9747b28c), half(0x5bd1e995)];
            });
      const majority = (pick: 0 | 1) => {
        let bits = 0;
        for (let bit = 0; bit < 32; bit++) if (2 * features.filter((f) => (f[pick] >>> bit) & 1).length > features.length) bits |= 1 << bit;
        return bits >>> 0;
      };
      return { hi: majority(0), lo: majority(1) };
    };
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('shop', 'blue', 'size', 'été', '漢字'), fc.string({ minLength: 1, maxLength: 12 })), { maxLength: 60 }), (words) => {
        expect(simhash64(words)).toEqual(reference(words));
      }),
    );
  });

  it('puts a slightly edited text near, and an unrelated one far', () => {
    const words = fingerprintWords(prose('simhash-base', 400));
    const edited = [...words];
    edited[50] = 'edited';
    edited[300] = 'again';
    const a = simhash64(words)!;
    expect(simhashSimilarity(a, simhash64(edited)!)).toBeGreaterThanOrEqual(90);
    expect(simhashSimilarity(a, simhash64(fingerprintWords(prose('other', 400)))!)).toBeLessThan(80);
    expect(hammingDistance(a, a)).toBe(0);
  });
});

describe('protection pages', () => {
  it('recognises challenge and captcha pages', () => {
    expect(detectProtection({ status: 503, headers: {}, title: 'Just a moment...', body: '<script src="/cdn-cgi/challenge-platform/x"></script>' })).toBe('challenge');
    expect(detectProtection({ status: 403, headers: {}, title: 'Attention Required! | Cloudflare', body: 'Please complete the security check' })).toBe('firewall');
    expect(detectProtection({ status: 429, headers: {}, title: null, body: '<div class="g-recaptcha"></div>' })).toBe('captcha');
    expect(detectProtection({ status: 200, headers: { 'cf-mitigated': 'challenge' }, title: 'x', body: '' })).toBe('challenge');
    expect(detectProtection({ status: 200, headers: {}, title: 'Checking your browser', body: 'short' })).toBe('challenge');
  });

  it('reads the body only where it can change the verdict: the same verdicts as reading it always', () => {
    // The rule as first written, every marker tested on every answer.
    const titles = [/^just a moment/i, /^checking your browser/i, /^access denied$/i, /^security check/i];
    const strong = /enable javascript and cookies to continue|cf-browser-verification|cf_chl_|challenge-platform|cf-challenge|px-captcha|perimeterx|datadome/i;
    const captcha = /g-recaptcha|h-captcha|hcaptcha\.com|recaptcha\/api|turnstile|captcha/i;
    const reference = (status: number, title: string, body: string) => {
      const strongTitle = titles.some((re) => re.test(title.trim()));
      const strongBody = strong.test(body);
      if (status >= 200 && status < 300) return strongTitle && (strongBody || captcha.test(body) || body.length < 5_000) ? 'challenge' : null;
      if (status === 403 || status === 429 || status === 503) {
        if (strongBody) return 'challenge';
        if (captcha.test(body)) return 'captcha';
        if (strongTitle) return status === 403 ? 'firewall' : 'challenge';
      }
      return null;
    };
    const title = fc.constantFrom('', 'Just a moment...', ' Checking your browser', 'Access denied', 'Security check', 'Shop', 'Contact us');
    // A body: short or past 5,000 characters, with any of the markers (strong ones, captcha ones) or none.
    const markers = fc.subarray(['cf_chl_opt', 'perimeterx', 'enable JavaScript and cookies to continue', 'datadome', 'g-recaptcha', 'turnstile']);
    fc.assert(
      fc.property(fc.constantFrom(200, 204, 301, 403, 404, 429, 500, 503), title, fc.boolean(), markers, (status, t, long, found) => {
        const body = `${long ? 'x'.repeat(5_000) : ''} ${found.join(' ')}`;
        expect(detectProtection({ status, headers: {}, title: t, body })).toBe(reference(status, t, body));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves ordinary pages alone, captcha forms included', () => {
    expect(detectProtection({ status: 200, headers: {}, title: 'Contact us', body: '<div class="g-recaptcha"></div>' })).toBeNull();
    expect(detectProtection({ status: 403, headers: {}, title: '403 Forbidden', body: 'nginx' })).toBeNull();
    expect(detectProtection({ status: 503, headers: {}, title: 'Maintenance', body: 'back soon' })).toBeNull();
  });

  it('keeps each linked href once with the first link’s text, else its label, for the inlinks read', () => {
    const f = analyse(
      `<body><a href="/a"> First   <b>words</b> </a><a href="/a">Second</a>` +
        `<a href="/b" aria-label="Labelled"></a><a href="/c"><img src="/i.png" alt="Logo"></a><a href="/d"></a>` +
        `<a href="#top">Top</a><a href="/e">${'long '.repeat(100)}</a></body>`,
    );
    expect(f.linkTexts.slice(0, 4)).toEqual([
      { href: '/a', text: 'First words' },
      { href: '/b', text: 'Labelled' },
      { href: '/c', text: 'Logo' },
      { href: '/d', text: '' },
    ]);
    // In-page anchors are not links; a long text is cut at 200 characters.
    expect(f.linkTexts.map((l) => l.href)).toEqual(['/a', '/b', '/c', '/d', '/e']);
    expect(f.linkTexts[4].text).toHaveLength(200);
  });
});
