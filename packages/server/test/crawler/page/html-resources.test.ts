import { describe, expect, it } from 'vitest';
import { HtmlAnalyser } from '../../../src/crawler/page/html-analyser.js';
import { pageFacts } from '../../../src/crawler/page/page-audit.js';
import { pageChecks } from '../../../src/crawler/page/page-checks.js';

function facts(html: string, url = 'https://shop.example/dir/page') {
  const analyser = new HtmlAnalyser();
  analyser.write(html);
  return pageFacts({
    url,
    status: 200,
    headers: { 'strict-transport-security': 'max-age=1' },
    ttfbMs: 10,
    depth: 1,
    discoveredVia: 'link',
    html: analyser.end(),
    sizeBytes: html.length,
    isInternal: (u) => u.startsWith('https://shop.example/'),
    robotsToken: 'siteauditbot',
  });
}

describe('resources a page loads', () => {
  it('reads every kind of reference, typed, resolved against <base> and normalised', () => {
    const f = facts(`<!doctype html><html><head><base href="https://shop.example/assets/">
      <link rel="stylesheet" href="site.css"><link rel="alternate stylesheet" href="alt.css">
      <link rel="icon" href="/favicon.ico"><link rel="apple-touch-icon" href="touch.png"><link rel="mask-icon" href="mask.svg">
      <link rel="manifest" href="/app.webmanifest"><link rel="preload" href="font.woff2" as="font"><link rel="modulepreload" href="mod.js">
      <link rel="canonical" href="/c"><link rel="alternate" hreflang="fr" href="/fr/"><link rel="preconnect" href="https://cdn.example">
      <script src="app.js"></script><script>inline()</script></head>
      <body><img src="a.png" srcset="a-1.png 1x, a-2.png 2x"><picture><source srcset="p.webp 1x, p2.webp 2x" type="image/webp"><img src="p.jpg"></picture>
      <video src="v.mp4" poster="poster.jpg"><source src="v.webm"><track src="subs.vtt"></video><audio src="a.mp3"></audio>
      <iframe src="https://video.example/embed/1"></iframe><embed src="e.swf"><object data="doc.pdf"></object>
      <img src="#top"><img src="data:image/png;base64,AAAA"><script src="javascript:void(0)"></script><iframe src="about:blank"></iframe><img src="blob:https://shop.example/x">
      <img src="HTTPS://Shop.Example/assets/a.png#frag">
      </body></html>`);
    const a = 'https://shop.example/assets/';
    expect(f.resources).toEqual([
      { url: `${a}site.css`, type: 'stylesheet' },
      { url: `${a}alt.css`, type: 'stylesheet' },
      { url: 'https://shop.example/favicon.ico', type: 'icon' },
      { url: `${a}touch.png`, type: 'icon' },
      { url: `${a}mask.svg`, type: 'icon' },
      { url: 'https://shop.example/app.webmanifest', type: 'manifest' },
      { url: `${a}font.woff2`, type: 'preload' },
      { url: `${a}mod.js`, type: 'preload' },
      { url: `${a}app.js`, type: 'script' },
      { url: `${a}a.png`, type: 'image' },
      { url: `${a}a-1.png`, type: 'image' },
      { url: `${a}a-2.png`, type: 'image' },
      { url: `${a}p.webp`, type: 'image' },
      { url: `${a}p2.webp`, type: 'image' },
      { url: `${a}p.jpg`, type: 'image' },
      { url: `${a}v.mp4`, type: 'media' },
      { url: `${a}poster.jpg`, type: 'image' },
      { url: `${a}v.webm`, type: 'media' },
      { url: `${a}subs.vtt`, type: 'media' },
      { url: `${a}a.mp3`, type: 'media' },
      { url: 'https://video.example/embed/1', type: 'frame' },
      { url: `${a}e.swf`, type: 'object' },
      { url: `${a}doc.pdf`, type: 'object' },
    ]);
  });

  it('lists a URL once, with the type of its use rather than its preload', () => {
    const f = facts('<html><head><link rel="preload" href="/s.css" as="style"><link rel="stylesheet" href="/s.css"></head><body><img src="/i.png"><img src="/i.png"></body></html>');
    expect(f.resources).toEqual([
      { url: 'https://shop.example/s.css', type: 'stylesheet' },
      { url: 'https://shop.example/i.png', type: 'image' },
    ]);
  });
});

describe('mixed_content', () => {
  const names = (html: string) => pageChecks(facts(html)).filter((f) => f.name === 'mixed_content');

  it('says which kinds of resource an HTTPS page loads over HTTP', () => {
    const [finding] = names(
      '<html><head><link rel="stylesheet" href="http://cdn.example/s.css"><script src="http://cdn.example/a.js"></script></head><body><img srcset="http://img.example/a.png 1x, https://img.example/b.png 2x"><img src="http://img.example/c.png"></body></html>',
    );
    expect(finding.details).toBe(
      '4 HTTP resource(s) (1 stylesheet, 1 script, 2 image): stylesheet http://cdn.example/s.css, script http://cdn.example/a.js, image http://img.example/a.png (+1)',
    );
  });

  it('is not raised when every resource is HTTPS, nor for links to HTTP pages', () => {
    expect(names('<html><head><link rel="stylesheet" href="/s.css"></head><body><img src="https://img.example/a.png"><a href="http://other.example/">x</a></body></html>')).toEqual([]);
  });
});
