/**
 * The guard on outbound requests to user-supplied addresses (crawls, webhooks, project URLs):
 * every address a name resolves to must be public unicast, checked after WHATWG parsing (which
 * turns `2130706433` into 127.0.0.1) and again at connect time, where the vetted address is
 * pinned so DNS rebinding cannot swap it (docs/decisions/outbound-addresses.md).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { isLocalHostName } from '@siteaudit/schema/rules';

export class AddressRefusedError extends Error {
  readonly code = 'refused_address';
  /**
   * Without `address`, the name did not resolve; `options.cause` then holds the lookup error. The
   * message never names the address: it reaches tenants (a crawl's error, its findings, exports),
   * and an internal name's private address is the operator's to know (`address` is for logs).
   */
  constructor(readonly host: string, readonly address?: string, options?: ErrorOptions) {
    super(address === host ? `${host} is a local name` : address ? `${host} resolves to a non-public address` : `${host} cannot be resolved`, options);
    this.name = 'AddressRefusedError';
  }
}

/** IANA allocates global unicast IPv6 only from 2000::/3. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** True when the address is public unicast; IPv4-mapped IPv6 is unwrapped first. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  // ipaddr.js calls everything it has no name for `unicast`, including the deprecated
  // IPv4-compatible ::/96 (`[::127.0.0.1]` parses to ::7f00:1) and unallocated space.
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

/** Strips IPv6 brackets from a URL hostname. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name and vets every address. With `allowPrivate` the check is skipped (dev,
 * tests), but the resolution still happens so unknown names fail the same way. A local name
 * (`localhost`, `*.localhost`, `.local` …) is refused before any lookup, resolvable or not.
 */
export async function resolveVetted(hostname: string, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const host = bareHost(hostname);
  if (!allowPrivate && !isIP(host) && isLocalHostName(host)) throw new AddressRefusedError(host, host);
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })) as ResolvedAddress[];
    } catch (error) {
      throw new AddressRefusedError(host, undefined, { cause: error });
    }
  }
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new AddressRefusedError(host, bad.address);
  }
  if (addresses.length === 0) throw new AddressRefusedError(host);
  return addresses;
}

/** Checks a whole URL: http(s) only (https only when asked), and a public destination. */
export async function assertPublicUrl(url: string, options: { allowPrivate: boolean; httpsOnly?: boolean }): Promise<void> {
  const parsed = new URL(url);
  const okScheme = options.httpsOnly ? parsed.protocol === 'https:' : parsed.protocol === 'https:' || parsed.protocol === 'http:';
  if (!okScheme) throw new AddressRefusedError(parsed.hostname);
  await resolveVetted(parsed.hostname, options.allowPrivate);
}

/**
 * An undici dispatcher whose every connection is vetted and pinned to the vetted address; TLS
 * still verifies the original host name (servername). Use it for each outbound request.
 */
export function createGuardedAgent(options: {
  allowPrivate: boolean;
  connectTimeoutMs?: number;
  keepAlive?: boolean;
  connections?: number;
  /** PEM certificates trusted besides Node's bundled roots (given, they replace NODE_EXTRA_CA_CERTS). */
  ca?: readonly string[];
}) {
  const ca = options.ca?.length ? [...rootCertificates, ...options.ca] : undefined;
  const connector = buildConnector({ timeout: options.connectTimeoutMs ?? 10_000, ...(ca ? { ca } : {}) });
  return new Agent({
    connections: options.connections,
    keepAliveTimeout: options.keepAlive === false ? 1 : 4_000,
    connect(opts, callback) {
      const host = bareHost(opts.hostname);
      resolveVetted(host, options.allowPrivate).then(
        ([first]) => {
          connector({ ...opts, hostname: first.address, servername: isIP(host) ? undefined : host } as typeof opts, callback);
        },
        (error: Error) => callback(error, null),
      );
    },
  });
}
