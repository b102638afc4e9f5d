/**
 * robots.txt per RFC 9309, with robots-parser doing the matching: the group whose user-agent
 * equals our product token (case-insensitive; groups of the same name merge) else `*`; within
 * it the longest matching path rule wins and Allow wins a tie; `*` and `$` wildcards.
 *
 * Fetch outcome (§2.3.1): 2xx → parse; 4xx → no rules, everything allowed; 5xx, 429 (as
 * Google does: a throttling server is not a missing file) or a network failure → unreachable,
 * everything disallowed; more than 5 redirects → treated as 4xx. /robots.txt itself is always
 * allowed (§2.2.2). The rules apply to the origin they were fetched for, even when the file
 * came from a redirect elsewhere (§2.3.1.2).
 */
import robotsParser from 'robots-parser';
import type { FetchErrorType, HttpClient } from './http.js';

/** RFC 9309 §2.5: parse at least 500 KiB. */
const ROBOTS_MAX_BYTES = 500 * 1024;

export type RobotsState = 'ok' | 'missing' | 'unreachable';

export interface RobotsPolicy {
  /** URL of the file, for issues. */
  url: string;
  state: RobotsState;
  status: number | null;
  /** Why the file could not be fetched at all (network), when that is the case. */
  error: FetchErrorType | null;
  sitemaps: string[];
  /** Crawl-delay for our token (or `*`), in milliseconds; null when none. */
  crawlDelayMs: number | null;
  /** True when `url` (same origin) may be fetched by `token` (default: our own token). */
  isAllowed(url: string, token?: string): boolean;
}

type Robot = ReturnType<typeof robotsParser>;

/** Builds a policy from robots.txt text, for the origin of `robotsUrl`. */
export function parseRobots(robotsUrl: string, text: string, ownToken: string, status: number | null = 200): RobotsPolicy {
  const robot: Robot = robotsParser(robotsUrl, text);
  const delay = robot.getCrawlDelay(ownToken);
  return {
    url: robotsUrl,
    state: 'ok',
    status,
    error: null,
    sitemaps: robot.getSitemaps(),
    crawlDelayMs: typeof delay === 'number' && delay > 0 ? delay * 1000 : null,
    isAllowed(url: string, token = ownToken): boolean {
      if (isRobotsFile(url)) return true;
      // undefined means another origin: this file says nothing about it.
      return robot.isAllowed(url, token) !== false;
    },
  };
}

function fixedPolicy(robotsUrl: string, state: Exclude<RobotsState, 'ok'>, status: number | null, error: FetchErrorType | null = null): RobotsPolicy {
  return {
    url: robotsUrl,
    state,
    status,
    error,
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
  if (res.status === null || res.error) return fixedPolicy(robotsUrl, 'unreachable', res.status, res.error?.type ?? 'connection');
  if (res.status >= 200 && res.status < 300) {
    return parseRobots(robotsUrl, res.body?.toString('utf8') ?? '', ownToken, res.status);
  }
  if (res.status === 429 || res.status >= 500) return fixedPolicy(robotsUrl, 'unreachable', res.status);
  // 4xx, and 3xx beyond the hop limit: "unavailable", no restriction.
  return fixedPolicy(robotsUrl, 'missing', res.status);
}
