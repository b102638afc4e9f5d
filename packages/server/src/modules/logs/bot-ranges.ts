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

/** IPv4 ranges as integer bounds (the hot path), IPv6 as parsed CIDRs. */
interface RangeSet {
  v4: [number, number][];
  v6: [ipaddr.IPv6, number][];
}

function rangeSet(files: RangeFile[]): RangeSet {
  const set: RangeSet = { v4: [], v6: [] };
  for (const file of files) {
    for (const prefix of file.prefixes) {
      if (prefix.ipv4Prefix) {
        const [address, bits] = ipaddr.IPv4.parseCIDR(prefix.ipv4Prefix);
        const start = address.toByteArray().reduce((n, b) => n * 256 + b, 0);
        const size = 2 ** (32 - bits);
        set.v4.push([start - (start % size), start - (start % size) + size - 1]);
      } else if (prefix.ipv6Prefix) {
        const [address, bits] = ipaddr.IPv6.parseCIDR(prefix.ipv6Prefix);
        set.v6.push([address, bits]);
      }
    }
  }
  return set;
}

function ipv4Number(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || +part > 255) return null;
    n = n * 256 + +part;
  }
  return n;
}

function contains(set: RangeSet, ip: string): boolean {
  const v4 = ipv4Number(ip);
  if (v4 !== null) return set.v4.some(([start, end]) => v4 >= start && v4 <= end);
  if (!ipaddr.IPv6.isValid(ip)) return false;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return contains(set, parsed.toString());
  return set.v6.some(([range, bits]) => (parsed as ipaddr.IPv6).match(range, bits));
}

const SETS: Record<VerifiedOperator, RangeSet> = {
  google: rangeSet([googlebot, specialCrawlers]),
  bing: rangeSet([bingbot]),
};

/** Whether the address is in the operator's published ranges; answers are cached per address. */
export function publishedRangeCheck(): (operator: VerifiedOperator, ip: string) => boolean {
  const cache = new Map<string, boolean>();
  return (operator, ip) => {
    const key = `${operator} ${ip}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = contains(SETS[operator], ip);
      if (cache.size < 100_000) cache.set(key, hit);
    }
    return hit;
  };
}
