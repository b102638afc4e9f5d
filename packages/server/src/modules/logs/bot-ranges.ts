/**
 * Google's and Bing's published crawler ranges (ranges/SOURCES.md says where and when the copies
 * come from; scripts/refresh-bot-ranges.ts refreshes them). A claim from inside them is verified
 * without a DNS query.
 */
import ipaddr from 'ipaddr.js';
import type { VerifiedOperator } from '@siteaudit/schema/rules';
import bingbot from './ranges/bingbot.json';
import googlebot from './ranges/googlebot.json';
import specialCrawlers from './ranges/special-crawlers.json';

interface RangeFile {
  prefixes: { ipv4Prefix?: string; ipv6Prefix?: string }[];
}

/** IPv4 ranges as sorted, merged integer bounds (the hot path: a binary search), IPv6 as parsed CIDRs. */
interface RangeSet {
  starts: number[];
  ends: number[];
  v6: [ipaddr.IPv6, number][];
}

function rangeSet(files: RangeFile[]): RangeSet {
  const v4: [number, number][] = [];
  const v6: [ipaddr.IPv6, number][] = [];
  for (const file of files) {
    for (const prefix of file.prefixes) {
      if (prefix.ipv4Prefix) {
        const [address, bits] = ipaddr.IPv4.parseCIDR(prefix.ipv4Prefix);
        const start = address.toByteArray().reduce((n, b) => n * 256 + b, 0);
        const size = 2 ** (32 - bits);
        v4.push([start - (start % size), start - (start % size) + size - 1]);
      } else if (prefix.ipv6Prefix) {
        v6.push(ipaddr.IPv6.parseCIDR(prefix.ipv6Prefix));
      }
    }
  }
  v4.sort((a, b) => a[0] - b[0]);
  const set: RangeSet = { starts: [], ends: [], v6 };
  for (const [start, end] of v4) {
    const last = set.ends.length - 1;
    if (last >= 0 && start <= set.ends[last] + 1) set.ends[last] = Math.max(set.ends[last], end);
    else {
      set.starts.push(start);
      set.ends.push(end);
    }
  }
  return set;
}

/** A dotted IPv4 address (parts of 1 to 3 digits, each at most 255) as a number, or -1; read by character codes. */
function ipv4Number(ip: string): number {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || ++dots > 3) return -1;
      n = n * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      part = part * 10 + c - 48;
      digits++;
      if (part > 255) return -1;
    } else return -1;
  }
  return dots === 3 && digits > 0 ? n * 256 + part : -1;
}

function containsV4(set: RangeSet, v4: number): boolean {
  let low = 0;
  let high = set.starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (v4 < set.starts[mid]) high = mid - 1;
    else if (v4 > set.ends[mid]) low = mid + 1;
    else return true;
  }
  return false;
}

function containsV6(set: RangeSet, ip: string): boolean {
  if (!ipaddr.IPv6.isValid(ip)) return false;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return containsV4(set, ipv4Number(parsed.toString()));
  return set.v6.some(([range, bits]) => (parsed as ipaddr.IPv6).match(range, bits));
}

/** Apple, Yandex and Baidu publish no ranges: their claims go to reverse DNS. */
const SETS: Record<VerifiedOperator, RangeSet> = {
  google: rangeSet([googlebot, specialCrawlers]),
  bing: rangeSet([bingbot]),
  apple: rangeSet([]),
  yandex: rangeSet([]),
  baidu: rangeSet([]),
};

/** IPv6 answers remembered per checker (IPv4 needs no cache: the search is cheaper than a lookup). */
const V6_CACHE_MAX = 100_000;

/** Whether the address is in the operator's published ranges. */
export function publishedRangeCheck(): (operator: VerifiedOperator, ip: string) => boolean {
  const cache = Object.fromEntries(Object.keys(SETS).map((operator) => [operator, new Map<string, boolean>()])) as Record<VerifiedOperator, Map<string, boolean>>;
  return (operator, ip) => {
    const v4 = ipv4Number(ip);
    if (v4 >= 0) return containsV4(SETS[operator], v4);
    let hit = cache[operator].get(ip);
    if (hit === undefined) {
      hit = containsV6(SETS[operator], ip);
      // A copy as the key: the address is cut from a 1 MiB chunk the cache must not keep alive.
      if (cache[operator].size < V6_CACHE_MAX) cache[operator].set(Buffer.from(ip).toString(), hit);
    }
    return hit;
  };
}
