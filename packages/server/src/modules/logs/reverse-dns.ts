/**
 * Reverse-DNS verification of a crawler claim, as Google and Bing document it: the address's PTR
 * name must end in the operator's domain, and that name must resolve back to the address. Behind
 * an adapter so tests use a stand-in; the default uses the system resolver.
 */
import { promises as dns } from 'node:dns';
import type { VerifiedOperator } from '@siteaudit/schema/rules';

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

/** developers.google.com/search/docs/crawling-indexing/verifying-googlebot; bing.com/webmasters/help/how-to-verify-bingbot-3905dc26. */
export const OPERATOR_DOMAINS: Record<VerifiedOperator, readonly string[]> = {
  google: ['googlebot.com', 'google.com', 'googleusercontent.com'],
  bing: ['search.msn.com'],
};

/** At most this many addresses are looked up per import; the rest stay unverified. */
export const MAX_REVERSE_LOOKUPS = 500;
const CONCURRENCY = 16;

async function verifyOne(resolver: DnsResolver, operator: VerifiedOperator, ip: string): Promise<boolean> {
  try {
    const names = await resolver.reverse(ip);
    for (const raw of names) {
      const name = raw.replace(/\.$/, '').toLowerCase();
      if (!OPERATOR_DOMAINS[operator].some((domain) => name === domain || name.endsWith(`.${domain}`))) continue;
      const addresses = await resolver.lookup(name);
      if (addresses.includes(ip)) return true;
    }
  } catch {
    // NXDOMAIN, timeout: not verified.
  }
  return false;
}

/**
 * One address at a time as the parse meets it (parse-session.ts), at most CONCURRENCY lookups in
 * flight; always false when the step is off. The parse asks for at most MAX_REVERSE_LOOKUPS.
 */
export function reverseDnsLookup(resolver: DnsResolver | null): (ip: string, operator: VerifiedOperator) => Promise<boolean> {
  if (!resolver) return async () => false;
  let running = 0;
  const queue: (() => void)[] = [];
  return async (ip, operator) => {
    while (running >= CONCURRENCY) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await verifyOne(resolver, operator, ip);
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}

/** The addresses among `claims` whose reverse DNS verifies their operator. */
export async function verifyByReverseDns(resolver: DnsResolver | null, claims: Map<string, VerifiedOperator>): Promise<Set<string>> {
  const verified = new Set<string>();
  if (!resolver) return verified;
  const queue = [...claims].slice(0, MAX_REVERSE_LOOKUPS);
  const work = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [ip, operator] = next;
      if (await verifyOne(resolver, operator, ip)) verified.add(ip);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, work));
  return verified;
}
