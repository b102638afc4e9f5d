/**
 * robots.txt per RFC 9309, matched by our own parser (robots-txt.ts; decisions in
 * docs/decisions/robots-txt.md): groups end only at a user-agent line that follows a rule, so
 * Crawl-delay, Sitemap or unknown lines never split one (§2.2.4); groups naming our product token
 * (case-insensitive) merge, else the `*` groups apply, and a group without rules allows everything;
 * the longest matching pattern wins and Allow wins a tie; `*`, `$`, and percent-encoding compared in
 * one canonical form on both sides. Google's leniencies are kept: a user-agent read up to its
 * first space, misspelled record names, a missing colon, a partial byte order mark, over-long lines.
 *
 * Fetch outcome (§2.3.1): 2xx → parse the first 500 KiB (§2.5); 4xx → no rules, everything
 * allowed; 5xx, 429 (as Google does: a throttling server is not a missing file) or a network
 * failure → unreachable, everything disallowed; more than 5 redirects → treated as 4xx.
 * /robots.txt itself is always allowed (§2.2.2). The rules apply to the origin they were fetched
 * for, even when the file came from a redirect elsewhere (§2.3.1.2).
 */
import type { FetchErrorType, HttpClient } from './http-client.js';
import { parseRobotsTxt, robotsPathOf, ROBOTS_MAX_BYTES } from './robots-txt.js';

export type RobotsState = 'ok' | 'missing' | 'unreachable';

export interface RobotsPolicy {
  /** URL of the file, for issues. */
  url: string;
  state: RobotsState;
  status: number | null;
  /** Why the file could not be fetched at all (network), when that is the case. */
  error: FetchErrorType | null;
  /** The library's message of that failure (`getaddrinfo ENOTFOUND host`), when there is one. */
  errorMessage?: string | null;
  sitemaps: string[];
  /** Crawl-delay for our token (or `*`), in milliseconds; null when none. */
  crawlDelayMs: number | null;
  /** True when `url` (same origin) may be fetched by `token` (default: our own token). */
  isAllowed(url: string, token?: string): boolean;
}

/** Builds a policy from robots.txt (text, or the bytes as served), for the origin of `robotsUrl`. */
export function parseRobots(robotsUrl: string, text: string | Uint8Array, ownToken: string, status: number | null = 200): RobotsPolicy {
  const robots = parseRobotsTxt(text);
  const origin = new URL(robotsUrl).origin;
  const delay = robots.rulesFor(ownToken).crawlDelay;
  return {
    url: robotsUrl,
    state: 'ok',
    status,
    error: null,
    sitemaps: robots.sitemaps,
    crawlDelayMs: delay !== null && delay > 0 ? delay * 1000 : null,
    isAllowed(url: string, token = ownToken): boolean {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return true;
      }
      // Another origin: this file says nothing about it.
      if (parsed.origin !== origin || parsed.pathname === '/robots.txt') return true;
      return robots.rulesFor(token).allows(robotsPathOf(parsed));
    },
  };
}

function fixedPolicy(robotsUrl: string, state: Exclude<RobotsState, 'ok'>, status: number | null, error: FetchErrorType | null = null, errorMessage: string | null = null): RobotsPolicy {
  return {
    url: robotsUrl,
    state,
    status,
    error,
    errorMessage,
    sitemaps: [],
    crawlDelayMs: null,
    isAllowed: (url: string) => state === 'missing' || isRobotsFile(url),
  };
}

function isRobotsFile(url: string): boolean {
  try {
    return new URL(url).pathname === '/robots.txt';
  } catch {
    return false;
  }
}

/** Fetches and interprets the robots.txt of an origin (`https://host[:port]`). */
export async function fetchRobots(client: HttpClient, origin: string, ownToken: string): Promise<RobotsPolicy> {
  const robotsUrl = `${origin}/robots.txt`;
  const res = await client.getResource(robotsUrl, { maxHops: 5, maxBytes: ROBOTS_MAX_BYTES, accept: 'text/plain,*/*;q=0.5' });
  if (res.status === null || res.error) return fixedPolicy(robotsUrl, 'unreachable', res.status, res.error?.type ?? 'connection', res.error?.message ?? null);
  if (res.status >= 200 && res.status < 300) {
    return parseRobots(robotsUrl, res.body ?? new Uint8Array(0), ownToken, res.status);
  }
  if (res.status === 429 || res.status >= 500) return fixedPolicy(robotsUrl, 'unreachable', res.status);
  // 4xx, and 3xx beyond the hop limit: "unavailable", no restriction.
  return fixedPolicy(robotsUrl, 'missing', res.status);
}
