import { AddressRefusedError, resolveVetted } from './address-guard.js';

export type UrlVerdict = 'public' | 'refused' | 'unresolved';

/**
 * The check at creation time (project URLs, webhook URLs). A name that does not resolve right
 * now is not refused: DNS may be down or the site not yet live, and every connection is vetted
 * again at connect time anyway (docs/decisions/outbound-addresses.md). A name or literal that
 * resolves to a non-public address is refused.
 */
export async function checkUrlAddress(url: string, options: { allowPrivate: boolean; httpsOnly?: boolean }): Promise<UrlVerdict> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'refused';
  }
  const schemeOk = options.httpsOnly ? parsed.protocol === 'https:' : parsed.protocol === 'https:' || parsed.protocol === 'http:';
  if (!schemeOk) return 'refused';
  if (options.allowPrivate) return 'public';
  try {
    await resolveVetted(parsed.hostname, false);
    return 'public';
  } catch (error) {
    if (error instanceof AddressRefusedError && error.address) return 'refused';
    return 'unresolved';
  }
}
