/**
 * URL hygiene of one page's URL (normalised: url.ts): uppercase letters, underscores, spaces and
 * non-ASCII characters in the path, length, parameters, session ids. Percent-escapes are not
 * letters of the URL (`%C3%A9` is é, not uppercase), so they are read decoded. A BCP 47 locale
 * segment (`/pt-BR/`) is not an uppercase URL.
 */
import { CHECK_DETAILS as D } from '@siteaudit/schema/rules';
import { THRESHOLDS, type CheckName } from '../checks.js';

export interface UrlFinding {
  name: CheckName;
  details: string;
}

/** Parameters that carry a session (PHP, Java, ASP, ColdFusion, common shops). */
const SESSION_PARAMETERS = /^(?:sid|sess|sessid|session|sessionid|session_id|phpsessid|jsessionid|aspsessionid[a-z]*|cfid|cftoken|zenid|oscsid|osCsid|s_id)$/i;

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A path segment naming a locale as BCP 47 writes it, with its script or region (`en-US`,
 * `pt-BR`, `zh-Hans`, `zh-Hant-TW`): its capitals are the standard's, not a URL's mistake.
 * A lone word is syntactically a tag too (`Shoes` is a 5-letter language), so the language must
 * be 2 or 3 letters and a script or region must follow; Intl.getCanonicalLocales validates.
 */
const LOCALE_SHAPE = /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?$/i;
export function isLocaleSegment(segment: string): boolean {
  if (!segment.includes('-') || !LOCALE_SHAPE.test(segment)) return false;
  try {
    return Intl.getCanonicalLocales(segment).length === 1;
  } catch {
    return false;
  }
}

export function urlHygiene(url: string): UrlFinding[] {
  const found: UrlFinding[] = [];
  const parsed = new URL(url);
  const path = parsed.pathname;
  const shown = decoded(path);
  const letters = path.replace(/%[0-9a-f]{2}/gi, '');
  if (/[A-Z]/.test(letters) && /[A-Z]/.test(letters.split('/').filter((s) => !isLocaleSegment(s)).join('/'))) found.push({ name: 'url_uppercase', details: D.urlUppercase(shown) });
  if (letters.includes('_')) found.push({ name: 'url_underscores', details: D.urlUnderscores(shown) });
  if (/%20/.test(path)) found.push({ name: 'url_spaces', details: D.urlSpaces(path) });
  if (/%[89a-f][0-9a-f]/i.test(path)) found.push({ name: 'url_non_ascii', details: D.urlNonAscii(shown) });
  if (url.length > THRESHOLDS.urlMaxChars) found.push({ name: 'url_too_long', details: D.urlLength(url.length) });
  const names = [...new Set([...parsed.searchParams.keys()])];
  if (names.length > THRESHOLDS.urlMaxParameters) found.push({ name: 'url_many_parameters', details: D.urlParameters(names) });
  const session = names.find((n) => SESSION_PARAMETERS.test(n)) ?? /;(jsessionid|phpsessid|sid)=/i.exec(path)?.[1];
  if (session !== undefined) found.push({ name: 'url_session_id', details: D.urlSessionId(session) });
  return found;
}
