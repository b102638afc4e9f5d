/**
 * One robots.txt per origin, fetched once and shared by every URL of that origin. Its Crawl-delay
 * (capped) paces the host from then on; a 5xx or 429 answer is reported once, since it disallows
 * the whole origin (RFC 9309 §2.3.1.3).
 */
import type { HttpClient } from './http-client.js';
import type { CrawlOutput } from '../run/crawl-output.js';
import { fetchRobots, type RobotsPolicy } from './robots-policy.js';
import { originOf } from '../url.js';

export class RobotsCache {
  private readonly policies = new Map<string, Promise<RobotsPolicy>>();

  constructor(
    private readonly client: HttpClient,
    /** Our robots.txt product token. */
    private readonly token: string,
    /** Longest Crawl-delay honoured. */
    private readonly maxWaitMs: number,
    private readonly output: CrawlOutput,
    /**
     * Origins whose unreachable robots.txt is reported (robots_txt_5xx is about the site); a
     * third-party origin's (a CDN serving a resource) only disallows what it serves.
     */
    private readonly reportsFor: (url: string) => boolean = () => true,
  ) {}

  /** The policy that applies to `url` (same origin). */
  for(url: string): Promise<RobotsPolicy> {
    const origin = originOf(url);
    let policy = this.policies.get(origin);
    if (!policy) {
      policy = fetchRobots(this.client, origin, this.token).then(async (p) => {
        const host = new URL(origin).host;
        if (p.crawlDelayMs) this.client.pacer.setDelay(host, Math.min(p.crawlDelayMs, this.maxWaitMs));
        if (p.state === 'unreachable' && p.status !== null && (p.status >= 500 || p.status === 429) && this.reportsFor(origin)) {
          await this.output.issue('robots_txt_5xx', null, `status ${p.status}: robots.txt unreachable, so everything is disallowed`, p.url);
        }
        return p;
      });
      this.policies.set(origin, policy);
    }
    return policy;
  }
}
