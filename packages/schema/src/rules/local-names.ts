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
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return LOCAL_ZONES.some((zone) => host === zone || host.endsWith(`.${zone}`));
}
