/**
 * The analysis of an HTML page from its bytes to what the crawl keeps of it: decoded (declared
 * or sniffed charset, fetch/decode.ts), parsed (html-analyser.ts), checked on its own (page-audit.ts) and
 * digested for the cross-page checks (page-digest.ts). It takes and returns plain data, so it runs
 * in the crawl's thread or in a page-analysis thread (threads/analysis-ports.ts) with the same
 * result: it is most of a crawl's CPU time.
 */
import { StreamingHtmlDecoder, charsetFromContentType } from '../fetch/decode.js';
import { HtmlAnalyser, type HtmlFacts } from './html-analyser.js';
import { analysePage } from './page-audit.js';
import type { Finding, PageInput, PageSummary } from './page-facts.js';
import { digestOf, type PageDigest } from './page-digest.js';
import { SiteSet } from '../run/crawl-scope.js';

/** A fetched HTML page to analyse: the response as the page's input has it, and its bytes. */
export interface AnalysisRequest extends Pick<PageInput, 'url' | 'status' | 'headers' | 'ttfbMs' | 'depth' | 'discoveredVia'> {
  contentType: string | null;
  /** The decompressed body, as read (up to the crawl's HTML cap). */
  body: Uint8Array;
  /** The page's size in bytes for the record (the declared length when the cap cut the body). */
  sizeBytes: number;
  truncated: boolean;
  /** The crawl's internal sites (run/crawl-scope.ts `siteKey`): what makes a link internal. */
  sites: string[];
  /** Our robots.txt product token. */
  robotsToken: string;
  /** Also return the decoded HTML and every fact (the browser pass renders the page, and may analyse its facts again). */
  keepHtml?: boolean;
}

export interface PageAnalysis {
  /**
   * The facts of the HTML. Unless `keepHtml`, without what the summary holds resolved (links,
   * resources) or the digest replaces (words): less to copy between threads.
   */
  html: HtmlFacts;
  summary: PageSummary;
  findings: Finding[];
  digest: PageDigest;
  /** The decoded HTML when asked for, else null. */
  decoded: string | null;
}

/** Analyses one page's body; runs wherever the caller is. */
export function analyseHtml(request: AnalysisRequest): PageAnalysis {
  const analyser = new HtmlAnalyser(['robots', request.robotsToken]);
  const kept: string[] | null = request.keepHtml ? [] : null;
  const decoder = new StreamingHtmlDecoder(charsetFromContentType(request.contentType), (text) => {
    analyser.write(text);
    kept?.push(text);
  });
  if (request.body.length) decoder.write(Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength));
  decoder.end();
  const html = analyser.end();
  const { findings, summary, digest } = analyseFacts(request, html);
  if (kept) return { html, summary, findings, digest, decoded: kept.join('') };
  return { html: { ...html, mainWords: [], links: [], resources: [] }, summary, findings, digest, decoded: null };
}

/** The last pages' sites, kept while they stay the same (they change when a start URL redirects to another site). */
let lastSites: { keys: string[]; set: SiteSet } | null = null;

function siteSetOf(keys: string[]): SiteSet {
  const same = lastSites !== null && (lastSites.keys === keys || (lastSites.keys.length === keys.length && lastSites.keys.every((k, i) => k === keys[i])));
  if (!same) lastSites = { keys, set: new SiteSet(keys) };
  return lastSites!.set;
}

/** What a page's facts (fetched, or rendered by the browser) give: its own checks, its summary and its digest. */
export function analyseFacts(
  request: Omit<AnalysisRequest, 'body' | 'contentType' | 'keepHtml'>,
  html: HtmlFacts,
): { findings: Finding[]; summary: PageSummary; digest: PageDigest } {
  const sites = siteSetOf(request.sites);
  const { findings, summary } = analysePage({
    url: request.url,
    status: request.status,
    headers: request.headers,
    ttfbMs: request.ttfbMs,
    depth: request.depth,
    discoveredVia: request.discoveredVia,
    html,
    sizeBytes: request.sizeBytes,
    truncated: request.truncated,
    isInternal: (u) => sites.has(u),
    robotsToken: request.robotsToken,
  });
  return { findings, summary, digest: digestOf(summary, html.mainWords) };
}

/** Where pages are analysed: in this thread (the default) or in a pool of threads. */
export interface PageAnalyser {
  analyse(request: AnalysisRequest): Promise<PageAnalysis>;
}

export const analyseHere: PageAnalyser = {
  analyse: async (request) => analyseHtml(request),
};
