/**
 * The mock's stand-in for the server's address guard. The server resolves every name and vets
 * each address with ipaddr.js; the mock resolves nothing (it runs in browsers, offline) and
 * refuses only what is private on its face: local names and IP literals in non-public ranges.
 * Written by hand because the check is a few ranges and the mock must stay dependency-free.
 */
import { isLocalHostName } from '@siteaudit/schema/rules';

function ipv4Private(a: number, b: number): boolean {
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  );
}

function parseIpv4(host: string): [number, number] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? [parts[0], parts[1]] : null;
}

/**
 * True when a URL's host is obviously not public: localhost and local suffixes, private,
 * loopback, link-local, CGNAT, multicast or reserved IPv4, and loopback, unique-local,
 * link-local or IPv4-mapped private IPv6. The WHATWG parser has already turned `2130706433`
 * or `0x7f.1` into `127.0.0.1`, so checking the parsed hostname covers those spellings.
 */
export function isObviouslyPrivateHost(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  if (isLocalHostName(hostname)) return true;
  const host = hostname.replace(/\.$/, '');
  const v4 = parseIpv4(host);
  if (v4) return ipv4Private(v4[0], v4[1]);
  if (host.startsWith('[') && host.endsWith(']')) {
    const v6 = host.slice(1, -1);
    if (v6 === '::' || v6 === '::1') return true;
    if (/^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || /^ff/.test(v6)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
    if (mapped) {
      const inner = parseIpv4(mapped[1]);
      return inner ? ipv4Private(inner[0], inner[1]) : true;
    }
    // WHATWG prints IPv4-mapped addresses in hex (::ffff:7f00:1): refuse them all.
    if (/^::ffff:/.test(v6)) return true;
  }
  return false;
}
