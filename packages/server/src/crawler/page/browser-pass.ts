/**
 * The browser side of a page (docs/decisions/rendering.md): rendered in Chromium when the
 * campaign asks for JavaScript rendering (the analysis then reads the rendered DOM) or for the
 * full accessibility rule set; otherwise the layout-free rules on the fetched HTML. A failure
 * falls back to the fetched HTML and is reported as render_failed.
 */
import { HtmlAnalyser, type HtmlFacts } from './html-analyser.js';
import { throwIfAborted } from '../../abort.js';
import type { AccessibilityFinding, AccessibilityRules, FetchedPage, PageRenderer } from '../crawl-types.js';

export interface BrowserOutcome {
  /** The facts to analyse: the rendered DOM's with JavaScript rendering, else the fetched ones. */
  html: HtmlFacts;
  accessibility: AccessibilityFinding[] | null;
  /** Why rendering failed (`code: message`, at most 500 characters), or null. */
  failure: string | null;
}

export interface BrowserPassOptions {
  renderer: PageRenderer;
  javascriptRendering: boolean;
  rules: AccessibilityRules;
  /** Our robots.txt product token, for the rendered page's meta robots. */
  token: string;
  signal: AbortSignal;
}

/** True when pages need the browser at all, so their fetched HTML must be kept for it. */
export function needsBrowser(options: { javascriptRendering: boolean; rules: AccessibilityRules }): boolean {
  return options.javascriptRendering || options.rules !== 'none';
}

export async function browserPass(options: BrowserPassOptions, page: FetchedPage, fetched: HtmlFacts): Promise<BrowserOutcome> {
  const { renderer, rules, signal } = options;
  try {
    if (options.javascriptRendering || rules === 'full') {
      const rendered = await renderer.render(page, { accessibility: rules, signal });
      let html = fetched;
      if (options.javascriptRendering) {
        const analyser = new HtmlAnalyser(['robots', options.token]);
        analyser.write(rendered.html);
        html = analyser.end();
      }
      return { html, accessibility: rendered.accessibility, failure: null };
    }
    if (rules === 'static') return { html: fetched, accessibility: await renderer.auditHtml(page, { signal }), failure: null };
    return { html: fetched, accessibility: null, failure: null };
  } catch (error) {
    throwIfAborted(signal);
    const code = (error as { code?: unknown }).code;
    // No browser at all is the operator's problem, not the page's: the crawl fails and says so.
    if (code === 'launch_failed') throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { html: fetched, accessibility: null, failure: `${typeof code === 'string' ? `${code}: ` : ''}${message}`.slice(0, 500) };
  }
}
