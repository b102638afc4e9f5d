/**
 * What rank tracking needs from a SERP source: the organic position of a site for one keyword in
 * one market, and the SERP features shown. Keyword data (volume, difficulty, intent) is a
 * separate provider: one can be configured without the other.
 */

export interface SerpQuery {
  /** Canonical keyword. */
  keyword: string;
  /** The project's host name; subdomains of its registrable part count as the site. */
  domain: string;
  /** Tracker market, e.g. location 'France', country 'FR', language 'fr', device 'desktop'. */
  location: string;
  country: string;
  language: string;
  device: string;
}

export interface SerpResult {
  /** Organic position (1..100) of the site's best result; null when it is not in the top 100. */
  position: number | null;
  url: string | null;
  /** SERP feature types present on the page (featured_snippet, people_also_ask…), organic excluded. */
  serpFeatures: string[];
}

export interface SerpProvider {
  readonly name: string;
  check(query: SerpQuery, options?: { signal?: AbortSignal }): Promise<SerpResult>;
}

export interface KeywordData {
  keyword: string;
  searchVolume: number | null;
  keywordDifficulty: number | null;
  searchIntent: string | null;
}

export interface KeywordDataQuery {
  keywords: string[];
  location: string;
  country: string;
  language: string;
}

export interface KeywordDataProvider {
  readonly name: string;
  /** Data for the keywords it knows; a keyword it does not know is simply absent. */
  lookup(query: KeywordDataQuery, options?: { signal?: AbortSignal }): Promise<KeywordData[]>;
}

/** `www.example.com` → `example.com`: the part a result's domain is matched against. */
export function siteRoot(domain: string): string {
  return domain.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

/** Whether a result's domain belongs to the site: the same root, or a subdomain of it. */
export function sameSite(resultDomain: string, siteDomain: string): boolean {
  const root = siteRoot(siteDomain);
  const candidate = resultDomain.toLowerCase().replace(/\.$/, '');
  return candidate === root || candidate.endsWith(`.${root}`);
}
