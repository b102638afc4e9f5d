import type { Language } from '../errors.js';

/**
 * The refusal of a site URL (project `url`, campaign `start_url`) that resolves to a private or
 * loopback address on a server that does not allow them: the field error, and a `detail` that
 * names the option allowing them for local development, in the caller's language.
 */
export function privateSiteRefusal(field: string, language: Language): { detail: string; errors: Record<string, { code: string; message: string }[]> } {
  return language === 'fr'
    ? {
        detail:
          "Ce serveur refuse les adresses privées et locales. Pour auditer un site de votre machine ou de votre réseau en développement, démarrez-le avec siteaudit-server start --allow-private-addresses (ou utilisez npm run dev).",
        errors: { [field]: [{ code: 'url_refused', message: 'Doit être un site http(s) public' }] },
      }
    : {
        detail:
          'This server refuses private and loopback addresses. To audit a site on your own machine or network in development, start it with siteaudit-server start --allow-private-addresses (or use npm run dev).',
        errors: { [field]: [{ code: 'url_refused', message: 'Must be a public http(s) site' }] },
      };
}
