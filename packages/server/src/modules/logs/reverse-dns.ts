/**
 * Reverse-DNS verification of a crawler claim, as Google, Bing, Apple, Yandex and Baidu document it: the address's PTR
 * name must end in a domain the claimed family's operator gives it (FAMILY_DOMAINS), and that name must resolve back to the address. Behind
 * an adapter so tests use a stand-in; the default uses the system resolver.
 */
import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { BotFamily } from '@siteaudit/schema';
import { OPERATOR_OF, VERIFIED_OPERATORS, type ClaimVerdict, type VerifiedOperator } from '@siteaudit/schema/rules';

export interface DnsResolver {
  /** PTR names of an address (dns.reverse). */
  reverse(ip: string): Promise<string[]>;
  /** A and AAAA addresses of a name. */
  lookup(host: string): Promise<string[]>;
}

export const systemResolver: DnsResolver = {
  reverse: (ip) => dns.reverse(ip),
  async lookup(host) {
    const answers = await dns.lookup(host, { all: true });
    return answers.map((a) => a.address);
  },
};

/**
 * The domains a family's PTR name may end in (developers.google.com/search/docs/crawling-indexing/verifying-googlebot;
 * bing.com/webmasters/help/how-to-verify-bingbot-3905dc26). Google's common crawlers (Googlebot,
 * GoogleOther, Google-InspectionTool, Storebot-Google) resolve to `googlebot.com` (`geo.googlebot.com`
 * included) or `google.com`, its special crawlers (AdsBot, Mediapartners, APIs-Google) to `google.com`,
 * and only its user-triggered fetchers (FeedFetcher-Google, in `google_other`) to
 * `gae.googleusercontent.com`. The rest of `googleusercontent.com` is any Google Cloud customer's
 * machine (`*.bc.googleusercontent.com`): it verifies nothing.
 */
export const FAMILY_DOMAINS: Partial<Record<BotFamily, readonly string[]>> = {
  googlebot: ['googlebot.com', 'google.com'],
  googlebot_smartphone: ['googlebot.com', 'google.com'],
  googlebot_image: ['googlebot.com', 'google.com'],
  googlebot_video: ['googlebot.com', 'google.com'],
  googlebot_news: ['googlebot.com', 'google.com'],
  google_other: ['googlebot.com', 'google.com', 'gae.googleusercontent.com'],
  bingbot: ['search.msn.com'],
  // support.apple.com/119829 ("About Applebot"): hosts in applebot.apple.com.
  applebot: ['applebot.apple.com'],
  // yandex.com/support/webmaster/robot-workings/check-yandex-robots.html: yandex.ru, .net or .com.
  yandexbot: ['yandex.ru', 'yandex.net', 'yandex.com'],
  // Baidu's webmaster help on Baiduspider: hosts in baidu.com or baidu.jp.
  baiduspider: ['baidu.com', 'baidu.jp'],
};

/** The families an operator's claims belong to. */
const FAMILIES_OF = Object.fromEntries(VERIFIED_OPERATORS.map((operator) => [operator, [] as BotFamily[]])) as Record<VerifiedOperator, BotFamily[]>;
for (const [family, operator] of Object.entries(OPERATOR_OF)) FAMILIES_OF[operator].push(family as BotFamily);

const under = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/** At most this many addresses are looked up per import; the rest stay unverified. */
export const MAX_REVERSE_LOOKUPS = 500;
const CONCURRENCY = 16;

/**
 * Ranges of a private or local network (ipaddr.js's names, after `process` unwraps IPv4-mapped
 * IPv6): loopback, RFC 1918 private, link-local, CGNAT (100.64/10), unique-local (fc00::/7),
 * unspecified, broadcast, multicast. No crawler calls from there: such an address is a reverse
 * proxy's own (a log without the real client address) or the site's internal network.
 */
const LOCAL_RANGES = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/**
 * The address as it is asked about and compared: IPv4-mapped IPv6 (`::ffff:66.249.66.1`, a
 * dual-stack server's log) unwrapped, IPv6 in RFC 5952's compact spelling; null for an address of
 * a private or local network (LOCAL_RANGES) and for text that is no address: its claim fails
 * without a question, so the resolver (and whatever it forwards to) never learns the addresses of
 * a site's own network.
 */
function publicForm(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.process(ip);
  return LOCAL_RANGES.has(parsed.range()) ? null : parsed.toString();
}

/** An answer of a forward lookup in `publicForm`'s spelling (a resolver may write IPv6 another way). */
const sameAddress = (answer: string, address: string) => ipaddr.isValid(answer) && publicForm(answer) === address;

/** The operator's families whose claims the address verifies: a PTR name in their domains that resolves back to it. */
async function verifyOne(resolver: DnsResolver, operator: VerifiedOperator, address: string): Promise<BotFamily[]> {
  const passed = new Set<BotFamily>();
  try {
    const names = await resolver.reverse(address);
    for (const raw of names) {
      const name = raw.replace(/\.$/, '').toLowerCase();
      const families = FAMILIES_OF[operator].filter((family) => FAMILY_DOMAINS[family]!.some((domain) => under(name, domain)));
      if (families.length === 0) continue;
      const addresses = await resolver.lookup(name);
      if (addresses.some((answer) => sameAddress(answer, address))) for (const family of families) passed.add(family);
    }
  } catch {
    // NXDOMAIN, timeout: not verified.
  }
  return [...passed];
}

/**
 * One address at a time as the parse meets it (parse-session.ts), at most CONCURRENCY lookups in
 * flight; always false when the step is off, and, without a question, for an address of a private
 * or local network, or no address at all (`publicForm`). The parse asks for at most MAX_REVERSE_LOOKUPS.
 */
export function reverseDnsLookup(resolver: DnsResolver | null): (ip: string, operator: VerifiedOperator) => Promise<ClaimVerdict> {
  if (!resolver) return async () => false;
  let running = 0;
  const queue: (() => void)[] = [];
  return async (ip, operator) => {
    const address = publicForm(ip);
    if (address === null) return false;
    while (running >= CONCURRENCY) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await verifyOne(resolver, operator, address);
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}
