/**
 * Host names that are local by definition, whatever a resolver answers: refused by name wherever
 * private addresses are (server and mock), so a name that does not resolve today cannot slip
 * through and later reach the machine or its network (docs/decisions/outbound-addresses.md).
 *
 * - `localhost` and every name under it (RFC 6761 §6.3: the whole tree is loopback);
 * - `.local` (RFC 6762, multicast DNS on the local link), `.home.arpa` (RFC 8375, home
 *   networks), `.internal` (reserved by ICANN for private use, 2024) and `.lan` (not delegated,
 *   used by home routers).
 *
 * A trailing dot (the fully qualified spelling, `localhost.`) and letter case change nothing.
 */
const LOCAL_ZONES = ['localhost', 'local', 'home.arpa', 'internal', 'lan'];

export function isLocalHostName(hostname: string): boolean {
  return inZones(hostname, LOCAL_ZONES);
}

/**
 * Names the public DNS never resolves: `.invalid` (RFC 6761 §6.4), `.test` (§6.2) and `.example`
 * (RFC 2606). A webhook URL must resolve to a public address (the spec), so one there is refused
 * by name, whatever the resolver says (a resolver that is down does not refuse a real name).
 * Project URLs may name a site not live yet, and are not refused for it.
 */
const UNRESOLVABLE_ZONES = ['invalid', 'test', 'example'];

export function isUnresolvableName(hostname: string): boolean {
  return inZones(hostname, UNRESOLVABLE_ZONES);
}

function inZones(hostname: string, zones: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return zones.some((zone) => host === zone || host.endsWith(`.${zone}`));
}
