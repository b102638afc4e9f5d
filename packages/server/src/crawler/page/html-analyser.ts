/**
 * Streaming HTML analysis with htmlparser2: the page is fed chunk by chunk as it arrives and
 * never held whole, so memory per page is bounded by what we extract, not by the document size.
 * Links are read whole (no cap: a large index page is often the only path to the pages behind
 * it), kept once per distinct href.
 *
 * Content facts (word count, heading outline, fingerprint words) read the main content, as
 * Sitebulb and Screaming Frog's content area do (docs/decisions/page-content.md): the text inside
 * `<main>`, `<article>` or `role=main` when the page has one, minus the navigation nested in it;
 * else the body minus `<nav>`, `<header>`, `<footer>`, `<aside>`, their ARIA roles and the sidebars
 * older themes mark only by class (SIDEBAR_CLASSES, outside `<main>`). Titles,
 * h1, meta tags and links are read from the whole page, as search engines read them, except an
 * h1 in the template's chrome (navigation, or a header or footer outside `<main>`): a theme's
 * site title is not the page's h1 when the page has one of its own.
 */
import { Parser } from 'htmlparser2';
import { isGenericAnchor } from './anchor-text.js';
import { collectResources, type HtmlResource } from './html-resources.js';
import { appendFingerprintWords, WORD } from './text-hash.js';
import { wordCount } from './word-count.js';
import { countScripts, emptyScriptCounts } from './page-language.js';

/** Hreflang annotations read a page (the head's, then its Link header's): a language-switcher's few hundred at most. */
export const MAX_HREFLANG = 300;

export interface HtmlLink {
  href: string;
  nofollow: boolean;
}

export interface HtmlImage {
  /** As written; a lazy loader's `data-src` (`data-lazy-src`, `data-original`) when `src` is a placeholder (inline, or none). */
  src: string;
  alt: string | null;
  hasWidth: boolean;
  hasHeight: boolean;
}

export interface HtmlFacts {
  titles: string[];
  metaDescriptions: string[];
  h1: string[];
  /** Heading outline of the main content. */
  headings: { level: number; text: string }[];
  /** First skipped heading level in the main content, e.g. h2 followed by h4. */
  headingSkip: { from: number; to: number } | null;
  /** Words of the main content. */
  wordCount: number;
  /** Letters of the main content's prose by script (page-language.ts SCRIPTS): what language the text is in. */
  scripts: number[];
  /** Normalised words of the main content, for fingerprints. */
  mainWords: string[];
  /** `<link rel=canonical>` hrefs of the head. */
  canonicals: string[];
  /** `<link rel=canonical>` hrefs found in the body, which search engines ignore. */
  bodyCanonicals: string[];
  baseHref: string | null;
  links: HtmlLink[];
  images: HtmlImage[];
  hreflang: { lang: string; href: string }[];
  metaRobots: string[];
  metaRobotsInBody: boolean;
  lang: string | null;
  viewport: string | null;
  og: { title: string | null; description: string | null; image: string | null };
  /** `<meta name="twitter:card">` content. */
  twitterCard: string | null;
  /** A charset declared by `<meta charset>` or `<meta http-equiv="content-type">`. */
  metaCharset: boolean;
  /** h1 elements with neither text nor an image alt. */
  emptyH1: number;
  /** Links (not in-page anchors) whose text is empty or generic (anchor-text.ts), every one up to ANCHOR_CAP. */
  shortAnchors: { href: string; text: string }[];
  /** Empty or generic links past ANCHOR_CAP, counted only. */
  anchorsUnread: number;
  /**
   * The text of each linked href, the first link's (up to LINK_TEXT_CAP hrefs, INLINK_TEXT_MAX
   * characters): its words, else its aria-label, title or image alt, else ''. For the inlinks read.
   */
  linkTexts: { href: string; text: string }[];
  /** `<link rel="next">` and `<link rel="prev">` hrefs (pagination), the first 10. */
  paginationLinks: { rel: 'next' | 'prev'; href: string }[];
  jsonLd: string[];
  metaRefresh: string | null;
  duplicateIds: string[];
  forms: { action: string; method: string }[];
  /** URLs the browser loads with the page, typed (html-resources.ts). */
  resources: HtmlResource[];
  /** Script URLs, for recognising challenge pages. */
  scriptSrcs: string[];
  /** Start of the visible text, for recognising challenge pages. */
  textSample: string;
}

const LIST_CAP = 5_000;
/** Distinct hrefs kept per page: far above any real page (a 10 MB page holds about 200,000 links). */
const LINK_CAP = 1_000_000;
const HEADING_CAP = 200;
const WORD_CAP = 200_000;
const JSONLD_CAP = 256 * 1024;
const SAMPLE_CAP = 2_000;
/** Anchor texts longer than this are never generic ("click here", "lire la suite"): not kept. */
export const ANCHOR_TEXT_MAX = 30;
const ANCHOR_CAP = 5_000;
/** Hrefs whose text is kept per page, and the characters kept of each (the inlinks read). */
export const LINK_TEXT_CAP = 2_000;
export const INLINK_TEXT_MAX = 200;

/** Code samples: not prose, so neither counted as words nor read for placeholder text (their words still fingerprint the page). */
const CODE = new Set(['code', 'pre']);
/** Elements whose text is not page text. */
const IGNORED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'select', 'textarea']);
/** Navigation: left out of the main content even inside it (breadcrumbs, tables of contents). */
const NAVIGATION = new Set(['nav', 'aside']);
const NAVIGATION_ROLES = new Set(['navigation', 'complementary', 'search']);
/**
 * Template sidebars marked only by a class, outside the main element (older Sphinx themes write
 * `<div class="sphinxsidebar">` and `<div class="related">` without a role, the site-title h1 and
 * the h3/h4 of the table of contents in them). Inside the main element a `sidebar` is the
 * article's own (Sphinx's `.. sidebar::` directive), and stays.
 */
const SIDEBAR_CLASSES = new Set(['sphinxsidebar', 'sidebar', 'related']);
/** Page chrome: left out when the page has no main element (inside an article, its own header). */
const CHROME = new Set(['header', 'footer']);
const CHROME_ROLES = new Set(['banner', 'contentinfo']);
const MAIN = new Set(['main', 'article']);

/** What an open element contributes to the scope of the text inside it (bits of `Scope`). */
const enum Scope {
  Ignored = 1,
  Svg = 2,
  Navigation = 4,
  Chrome = 8,
  Main = 16,
  Code = 32,
}

/** Headings and word counts of one candidate content area. */
class ContentArea {
  readonly headings: { level: number; text: string }[] = [];
  skip: { from: number; to: number } | null = null;
  words = 0;
  /** Letters of its prose by script. */
  readonly scripts = emptyScriptCounts();
  private last = 0;

  /** Prose of the area: its words, and its letters by script. */
  prose(words: number, scripts: readonly number[]): void {
    this.words += words;
    for (let k = 0; k < scripts.length; k++) this.scripts[k] += scripts[k];
  }

  heading(h: { level: number; text: string }): void {
    if (this.headings.length < HEADING_CAP) this.headings.push(h);
    // Going deeper by more than one level (h2 → h4) skips one; going back up never does. The
    // first heading is not compared: a page starting at h2 lacks an h1 (h1_missing).
    if (!this.skip && this.last > 0 && h.level > this.last + 1) this.skip = { from: this.last, to: h.level };
    this.last = h.level;
  }
}
/** Inline elements do not split words: `<b>co</b>de` is one word. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small',
  'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'font', 'label',
]);
/** Elements that can only be in <body>: meeting one means the head is over. */
const HEAD_ELEMENTS = new Set(['html', 'head', 'title', 'meta', 'link', 'base', 'script', 'style', 'noscript', 'template']);

function push<T>(list: T[], item: T, cap = LIST_CAP): void {
  if (list.length < cap) list.push(item);
}

/** Collapses ASCII whitespace only, as document.title does: a no-break space is part of the text. */
/** Whitespace that squash would change: anything but single spaces between non-spaces. */
const UNSQUASHED = /[\t\n\f\r]| {2}|^ | $/;

function squash(text: string): string {
  // Most text (a paragraph's words, an anchor's) is already squashed: one scan, no new string.
  if (!UNSQUASHED.test(text)) return text;
  return text.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');
}

/** Feeds HTML text chunks in with `write`, then `end()` returns the facts. */
export class HtmlAnalyser {
  private readonly facts: HtmlFacts = {
    titles: [],
    metaDescriptions: [],
    h1: [],
    headings: [],
    headingSkip: null,
    wordCount: 0,
    scripts: [],
    mainWords: [],
    canonicals: [],
    bodyCanonicals: [],
    baseHref: null,
    links: [],
    images: [],
    hreflang: [],
    metaRobots: [],
    metaRobotsInBody: false,
    lang: null,
    viewport: null,
    og: { title: null, description: null, image: null },
    twitterCard: null,
    metaCharset: false,
    emptyH1: 0,
    shortAnchors: [],
    anchorsUnread: 0,
    linkTexts: [],
    paginationLinks: [],
    jsonLd: [],
    metaRefresh: null,
    duplicateIds: [],
    forms: [],
    resources: [],
    scriptSrcs: [],
    textSample: '',
  };
  private readonly parser: Parser;
  private readonly ids = new Set<string>();
  /** The h1 elements in order, and whether each is in the template's chrome (a site title in the header or sidebar). */
  private readonly h1s: { text: string; template: boolean }[] = [];
  /** Distinct hrefs → nofollow (true when any link with that href is nofollow). */
  private readonly links = new Map<string, boolean>();
  private readonly bodyWords: string[] = [];
  private readonly articleWords: string[] = [];
  /** The main element's area, and the fallback: the body without navigation and chrome. */
  private readonly mainArea = new ContentArea();
  private readonly bodyArea = new ContentArea();
  /** The letters by script of the text being flushed. */
  private readonly scripts = emptyScriptCounts();
  private hasMain = false;
  private text = '';
  private inBody = false;
  /** Scope bits of each open element; htmlparser2 closes every element it opens, implied ones too. */
  private readonly stack: number[] = [];
  private ignored = 0;
  private svg = 0;
  private navigation = 0;
  private chrome = 0;
  private main = 0;
  private code = 0;
  private titleText: string | null = null;
  private heading: { level: number; text: string; imageAlt: boolean } | null = null;
  /** The open `<a href>`: its text, and whether something else names it (aria-label, title, an image alt). */
  /** The open link's text; `prose` once a word of it is outside <code> or <pre> (all inside: an identifier, never generic). */
  private anchorText: { href: string; text: string; named: boolean; label: string; prose: boolean } | null = null;
  /** Hrefs whose text is already in `linkTexts`. */
  private readonly texted = new Set<string>();
  private jsonLd: string | null = null;
  private jsonLdBytes = 0;
  private htmlSeen = false;

  constructor(private readonly robotsNames: readonly string[] = ['robots']) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name) => this.close(name),
        ontext: (data) => this.onText(data),
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
  }

  write(chunk: string): void {
    this.parser.write(chunk);
  }

  end(): HtmlFacts {
    this.parser.end();
    this.flush();
    const f = this.facts;
    for (const [href, nofollow] of this.links) f.links.push({ href, nofollow });
    // The site title a template writes as an <h1> in its header or sidebar is not the page's h1
    // when the page has one of its own; a page whose only h1 is there keeps it.
    const own = this.h1s.filter((h) => !h.template);
    f.h1 = (own.length ? own : this.h1s).map((h) => h.text);
    const area = this.hasMain ? this.mainArea : this.bodyArea;
    f.mainWords = this.hasMain ? this.articleWords : this.bodyWords;
    f.wordCount = area.words;
    f.scripts = area.scripts;
    f.headings = area.headings;
    f.headingSkip = area.skip;
    return f;
  }

  /** The scope bits element `name` opens, counted until it closes. */
  private enter(name: string, role: string | undefined, cls: string | undefined): number {
    const roles = role ? role.toLowerCase().split(/\s+/) : null;
    const hasRole = (set: Set<string>) => roles !== null && roles.some((r) => set.has(r));
    const sidebarClass = cls !== undefined && this.main === 0 && cls.toLowerCase().split(/\s+/).some((c) => SIDEBAR_CLASSES.has(c));
    let bits = 0;
    if (IGNORED.has(name)) bits |= Scope.Ignored;
    if (name === 'svg') bits |= Scope.Svg;
    if (NAVIGATION.has(name) || hasRole(NAVIGATION_ROLES) || sidebarClass) bits |= Scope.Navigation;
    if (CHROME.has(name) || hasRole(CHROME_ROLES)) bits |= Scope.Chrome;
    if (MAIN.has(name) || (roles !== null && roles.includes('main'))) bits |= Scope.Main;
    if (CODE.has(name)) bits |= Scope.Code;
    this.count(bits, 1);
    if (bits & Scope.Main) this.hasMain = true;
    return bits;
  }

  private count(bits: number, by: 1 | -1): void {
    if (bits === 0) return;
    if (bits & Scope.Ignored) this.ignored += by;
    if (bits & Scope.Svg) this.svg += by;
    if (bits & Scope.Navigation) this.navigation += by;
    if (bits & Scope.Chrome) this.chrome += by;
    if (bits & Scope.Main) this.main += by;
    if (bits & Scope.Code) this.code += by;
  }

  /**
   * True inside the site's template rather than the page's content: navigation anywhere, or a
   * header or footer outside the main element (an article's own header is the article's).
   */
  private get inTemplateChrome(): boolean {
    return this.navigation > 0 || (this.chrome > 0 && this.main === 0);
  }

  /** True when text here belongs to the main element's area, and to the fallback area. */
  private get inMainArea(): boolean {
    return this.main > 0 && this.navigation === 0;
  }

  private get inBodyArea(): boolean {
    return this.navigation === 0 && this.chrome === 0;
  }

  private open(name: string, a: Record<string, string>): void {
    if (!INLINE.has(name) || CODE.has(name)) this.flush();
    if (!this.inBody && (name === 'body' || !HEAD_ELEMENTS.has(name))) this.inBody = true;
    // Scope bits apply to the element's content: its own attributes (links, headings) are read
    // below with the scope of its parent, except a heading's text, which is collected until it closes.
    const bits = this.enter(name, a.role, a.class);
    if (a.id !== undefined && a.id !== '') {
      if (this.ids.has(a.id)) {
        if (!this.facts.duplicateIds.includes(a.id)) push(this.facts.duplicateIds, a.id, 20);
      } else if (this.ids.size < 50_000) this.ids.add(a.id);
    }
    collectResources(name, a, this.facts.resources);
    switch (name) {
      case 'html':
        if (!this.htmlSeen) {
          this.htmlSeen = true;
          this.facts.lang = a.lang !== undefined ? a.lang.trim() : null;
        }
        break;
      case 'title':
        if (this.svg === 0) this.titleText = '';
        break;
      case 'base':
        if (this.facts.baseHref === null && a.href) this.facts.baseHref = a.href.trim();
        break;
      case 'meta':
        this.meta(a);
        break;
      case 'link':
        this.link(a);
        break;
      case 'a':
      case 'area':
        if (a.href !== undefined) this.anchor(a.href.trim(), a.rel);
        if (name === 'a' && a.href !== undefined && !a.href.trim().startsWith('#')) {
          const named = [a['aria-label'], a['aria-labelledby'], a.title].some((v) => v !== undefined && v.trim() !== '');
          const label = (a['aria-label'] ?? '').trim() || (a.title ?? '').trim();
          this.anchorText = { href: a.href.trim(), text: '', named, label, prose: false };
        }
        break;
      case 'img':
        this.image(a);
        if (a.alt !== undefined && a.alt.trim() !== '') {
          if (this.anchorText) {
            this.anchorText.named = true;
            if (!this.anchorText.label) this.anchorText.label = a.alt.trim();
          }
          if (this.heading) this.heading.imageAlt = true;
        }
        break;
      case 'script':
        this.script(a);
        break;
      case 'form':
        push(this.facts.forms, { action: (a.action ?? '').trim(), method: (a.method ?? 'get').trim().toLowerCase() });
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        if (this.svg === 0) this.heading = { level: Number(name[1]), text: '', imageAlt: false };
        break;
    }
    this.stack.push(bits);
  }

  /** One `<a href>`: kept once per distinct href; in-page anchors are not links to follow. */
  private anchor(href: string, rel: string | undefined): void {
    if (href.startsWith('#')) return;
    const nofollow = rel !== undefined && rel.toLowerCase().split(/\s+/).includes('nofollow');
    const known = this.links.get(href);
    if (known === undefined) {
      if (this.links.size < LINK_CAP) this.links.set(href, nofollow);
    } else if (nofollow && !known) this.links.set(href, true);
  }

  private image(a: Record<string, string>): void {
    let src = (a.src ?? '').trim();
    // A lazy loader's placeholder (an inline GIF, or no src) stands for the image its script loads.
    if (src === '' || src.startsWith('data:')) src = (a['data-src'] ?? a['data-lazy-src'] ?? a['data-original'] ?? src).trim();
    push(this.facts.images, {
      src,
      alt: a.alt === undefined ? null : a.alt,
      hasWidth: a.width !== undefined && a.width.trim() !== '',
      hasHeight: a.height !== undefined && a.height.trim() !== '',
    });
  }

  private script(a: Record<string, string>): void {
    if (a.src) push(this.facts.scriptSrcs, a.src.trim(), 50);
    if ((a.type ?? '').trim().toLowerCase() === 'application/ld+json') this.jsonLd = '';
  }

  private close(name: string): void {
    if (!INLINE.has(name) || CODE.has(name)) this.flush();
    if (name === 'title' && this.titleText !== null) {
      push(this.facts.titles, squash(this.titleText), 20);
      this.titleText = null;
    } else if (this.heading && name === `h${this.heading.level}`) {
      const h = { level: this.heading.level, text: squash(this.heading.text) };
      const imageAlt = this.heading.imageAlt;
      this.heading = null;
      if (h.level === 1) push(this.h1s, { text: h.text, template: this.inTemplateChrome }, 50);
      if (h.level === 1 && h.text === '' && !imageAlt) this.facts.emptyH1++;
      // The heading element itself is still open here: its scope is its parent's.
      if (this.inMainArea) this.mainArea.heading(h);
      if (this.inBodyArea) this.bodyArea.heading(h);
    } else if (name === 'a' && this.anchorText) {
      const { href, named, label, prose } = this.anchorText;
      const text = squash(this.anchorText.text);
      this.anchorText = null;
      if (!this.texted.has(href) && this.texted.size < LINK_TEXT_CAP) {
        this.texted.add(href);
        this.facts.linkTexts.push({ href, text: (text || squash(label)).slice(0, INLINK_TEXT_MAX) });
      }
      if (!named && text.length <= ANCHOR_TEXT_MAX * 2 && (text === '' || (prose && isGenericAnchor(text)))) {
        if (this.facts.shortAnchors.length < ANCHOR_CAP) this.facts.shortAnchors.push({ href, text });
        else this.facts.anchorsUnread++;
      }
    } else if (name === 'script' && this.jsonLd !== null) {
      if (this.jsonLdBytes + this.jsonLd.length <= JSONLD_CAP) {
        this.jsonLdBytes += this.jsonLd.length;
        push(this.facts.jsonLd, this.jsonLd, 50);
      }
      this.jsonLd = null;
    }
    this.count(this.stack.pop() ?? 0, -1);
  }

  private onText(data: string): void {
    if (this.titleText !== null) {
      this.titleText += data;
      return;
    }
    if (this.jsonLd !== null) {
      if (this.jsonLd.length < JSONLD_CAP) this.jsonLd += data;
      return;
    }
    if (this.heading) this.heading.text += data;
    if (this.anchorText && this.anchorText.text.length <= INLINK_TEXT_MAX * 2) {
      this.anchorText.text += data;
      if (!this.anchorText.prose && this.code === 0 && data.trim() !== '') this.anchorText.prose = true;
    }
    if (this.ignored > 0 || !this.inBody) return;
    this.text += data;
    if (this.text.length > 64 * 1024) this.flush();
  }

  /** Turns the pending text into words, attributed to the scopes open right now. */
  private flush(): void {
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    const f = this.facts;
    const prose = this.code === 0;
    if (prose && f.textSample.length < SAMPLE_CAP) {
      // The sample is already squashed: squash only the new text (re-squashing the whole sample
      // on every flush was a hot spot of the crawl benchmark).
      const added = squash(text);
      if (added) f.textSample = (f.textSample ? `${f.textSample} ${added}` : added).slice(0, SAMPLE_CAP);
    }
    const inMain = this.inMainArea;
    const inBody = this.inBodyArea;
    if (!inMain && !inBody) return;
    const words = text.match(WORD);
    if (!words) return;
    if (prose) {
      // The text's letters counted once, for both areas it may belong to.
      const scripts = this.scripts.fill(0);
      const count = wordCount(text, words, this.facts.lang, countScripts(text, scripts));
      if (inMain) this.mainArea.prose(count, scripts);
      if (inBody) this.bodyArea.prose(count, scripts);
    }
    const target = inMain ? this.articleWords : this.bodyWords;
    if (target.length >= WORD_CAP) return;
    const from = target.length;
    appendFingerprintWords(words, target, WORD_CAP);
    // Text of the main element outside navigation and chrome also belongs to the fallback area.
    if (inMain && inBody) {
      for (let i = from; i < target.length && this.bodyWords.length < WORD_CAP; i++) this.bodyWords.push(target[i]);
    }
  }

  private meta(a: Record<string, string>): void {
    const name = (a.name ?? '').trim().toLowerCase();
    const property = (a.property ?? '').trim().toLowerCase();
    const content = a.content ?? '';
    if (name === 'description') push(this.facts.metaDescriptions, squash(content), 20);
    else if (this.robotsNames.includes(name)) {
      push(this.facts.metaRobots, content.trim(), 20);
      if (this.inBody) this.facts.metaRobotsInBody = true;
    } else if (name === 'viewport' && this.facts.viewport === null) this.facts.viewport = content.trim();
    const og = property || name;
    if (og === 'og:title' && this.facts.og.title === null) this.facts.og.title = content.trim();
    if (og === 'og:description' && this.facts.og.description === null) this.facts.og.description = content.trim();
    if ((og === 'og:image' || og === 'og:image:url') && this.facts.og.image === null) this.facts.og.image = content.trim();
    if (og === 'twitter:card' && this.facts.twitterCard === null) this.facts.twitterCard = content.trim();
    const httpEquiv = (a['http-equiv'] ?? '').trim().toLowerCase();
    if (a.charset !== undefined || (httpEquiv === 'content-type' && /charset\s*=/i.test(content))) this.facts.metaCharset = true;
    if (httpEquiv === 'refresh' && this.facts.metaRefresh === null) {
      this.facts.metaRefresh = content.trim();
    }
  }

  private link(a: Record<string, string>): void {
    const rel = (a.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const href = (a.href ?? '').trim();
    if (rel.includes('canonical')) push(this.inBody ? this.facts.bodyCanonicals : this.facts.canonicals, href, 20);
    for (const r of ['next', 'prev'] as const) if (rel.includes(r) && href) push(this.facts.paginationLinks, { rel: r, href }, 10);
    if (rel.includes('alternate') && a.hreflang !== undefined && href) {
      push(this.facts.hreflang, { lang: a.hreflang.trim(), href }, MAX_HREFLANG);
    }
  }
}

/** The delay of a meta refresh in seconds (`5; url=/next` → 5); 0 when none is written. */
export function metaRefreshDelay(content: string): number {
  const m = /^\s*(\d+(?:\.\d*)?)/.exec(content);
  return m ? Number(m[1]) : 0;
}

/** Parses the URL of a meta refresh (`5; url=/next`); null when it only reloads the page. */
export function metaRefreshTarget(content: string): string | null {
  const m = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/i.exec(content);
  if (!m) return null;
  const target = m[1].trim().replace(/^['"]|['"]$/g, '');
  return target || null;
}
