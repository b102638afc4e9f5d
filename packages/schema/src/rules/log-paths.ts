/**
 * Request targets as the server resolved them, for the log statistics and the crawl × logs join
 * (docs/decisions/logs.md, "Paths as the server resolved them"):
 *
 * - RFC 3986 normalisation (6.2.2): a percent-encoded unreserved character is decoded (`%2D` is
 *   `-`, `%7E` is `~`), other escapes are written in upper case (`%5c` is `%5C`), dot segments are
 *   removed (`/x/../a` is `/a`, `/x/./a` is `/x/a`); characters a URI may not hold raw (a space,
 *   `"`, `\`, `|`, non-ASCII…) are percent-encoded, UTF-8, so every spelling of one target is one
 *   string. Reserved characters stay as they are written (`%2F` is not `/`).
 * - `//` is kept: `//x/page.html` is a path of its own (search engines see another URL), never a
 *   host `x` as a URL parser reading it relative to a base would make it.
 * - nginx's and Apache's escapes in a Combined or Common line (`\x5C`, `\xC3\xA9`, `\"`, `\\`) are
 *   bytes the client sent: `decodeLogEscapes` turns them into percent-escapes before this runs, so
 *   `\x5C` is a backslash (`%5C`), not a `/`.
 *
 * - An e-mail address (raw `@` or `%40`) is replaced by `(email)`: the report needs the URL, not whose
 *   address it carried (docs/decisions/logs.md, Privacy).
 * - The value of a parameter named as a credential, a session or a phone number (`?PHPSESSID=…`,
 *   `;jsessionid=…`, `?access_token=…`, `X-Amz-Signature=…`) is replaced by `(redacted)`, its name
 *   kept (`redactCredentials`; docs/privacy.md, rule 3).
 * Idempotent: normalising a normalised target gives it back.
 */

const HEX = '0123456789ABCDEF';

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const hexValue = (c: number) => (c <= 57 ? c - 48 : (c | 32) - 87);

/** ALPHA / DIGIT / "-" / "." / "_" / "~" */
function isUnreserved(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95 || c === 126;
}

/** What a path may hold raw besides unreserved characters: sub-delims, ":", "@" and "/". */
const PATH_CHARS = new Set([..."!$&'()*+,;=:@/"].map((c) => c.charCodeAt(0)));
/** A query may also hold "?". */
const QUERY_CHARS = new Set([...PATH_CHARS, '?'.charCodeAt(0)]);

const escape = (byte: number) => `%${HEX[byte >> 4]}${HEX[byte & 15]}`;

/** Whether `target` is already normal, checked without building anything (the common case). */
function isNormal(target: string): boolean {
  let query = false;
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 63 /* ? */) query = true;
    else if (c === 37 /* % */ || c === 64 /* @, maybe an e-mail address */) return false;
    else if (!isUnreserved(c) && !(query ? QUERY_CHARS : PATH_CHARS).has(c)) return false;
    // A segment starting with "." may be a dot segment.
    else if (!query && c === 46 && target.charCodeAt(i - 1) === 47) return false;
  }
  return true;
}

/** One component: escapes decoded when unreserved, upper-cased otherwise; what may not stand raw, encoded. */
function normaliseComponent(text: string, allowed: ReadonlySet<number>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 37 /* % */) {
      const a = text.charCodeAt(i + 1);
      const b = text.charCodeAt(i + 2);
      if (isHex(a) && isHex(b)) {
        const byte = hexValue(a) * 16 + hexValue(b);
        out += isUnreserved(byte) ? String.fromCharCode(byte) : escape(byte);
        i += 2;
      } else out += '%25';
    } else if (c < 128) {
      out += isUnreserved(c) || allowed.has(c) ? text[i] : escape(c);
    } else {
      // A non-ASCII character (a surrogate pair counts as one): its UTF-8 bytes, escaped.
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? text.slice(i, i + 2) : text[i];
      let encoded: string;
      try {
        encoded = encodeURIComponent(pair);
      } catch {
        encoded = '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a UTF-8 decoder would give
      }
      out += encoded;
      i += pair.length - 1;
    }
  }
  return out;
}

/** RFC 3986 5.2.4, on an absolute path: `.` and `..` segments go; `//` (an empty segment) stays. */
export function removeDotSegments(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i];
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && out.length > 0) out.pop();
      // A dot segment at the end leaves the path ending in "/".
      if (last) out.push('');
    } else out.push(segment);
  }
  return '/' + out.join('/');
}

/**
 * An e-mail address in a normalised target, `@` raw or escaped (`%40`): `jane.doe@example.com`,
 * `?email=jane%2Bshop%40example.org`. Its local part is what a normalised target holds of one
 * (unreserved characters, `+`, `%2B`), never starting inside a percent-escape (`%23@x.com` holds
 * none); its domain ends in a label of letters, and is not an image's density (`logo@2x.png`).
 */
const EMAIL = /(?<!%[0-9A-Fa-f]?)(?:[A-Za-z0-9._~+-]|%2B)+(?:@|%40)(?![0-9]+x\.)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;

/**
 * What an e-mail address in a path or query becomes (docs/decisions/logs.md, Privacy): the bot
 * report needs the URL's shape, never whose address it held. Characters a normal target holds raw.
 */
export const REDACTED_EMAIL = '(email)';

/**
 * A request target's path and query (starting with `/`), normalised as the header says, with every
 * e-mail address replaced by `(email)` and every credential or session parameter's value by
 * `(redacted)`: a log path is never stored with one, and the crawl's side of the join (normalised
 * by this too) meets it under the same spelling.
 */
export function normaliseLogPath(target: string): string {
  if (isNormal(target)) return redactCredentials(target);
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const normalPath = removeDotSegments(normaliseComponent(path, PATH_CHARS));
  return redactCredentials(redactEmails(q === -1 ? normalPath : `${normalPath}?${normaliseComponent(target.slice(q + 1), QUERY_CHARS)}`));
}

/** What the value of a credential, session or contact parameter becomes (`redactCredentials`). Characters a normal target holds raw. */
export const REDACTED_VALUE = '(redacted)';

/**
 * Parameter names whose value is a credential, a session or a phone number, folded (`foldName`:
 * decoded, lower case, letters and digits only, so `session_id`, `Session-ID`, `sessionId` and
 * `session%5Bid%5D` are one name). `key` is listed although some sites name a page by it: in
 * URLs bots pick up it carries an API key or a password-reset key (WordPress's
 * `wp-login.php?action=rp&key=…`) far more often. `code` and `state` are not listed alone (a
 * promotion code, a country): both go when a query holds both, an OAuth callback's.
 */
export const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  // Sessions: PHP, Java, phpBB (`sid`), ColdFusion, osCommerce, Zen Cart, OpenID Connect (the
  // crawler's `url_session_id` check names the same, url-hygiene.ts).
  'sid', 'sess', 'session', 'sessid', 'phpsessid', 'jsessionid', 'sessionid', 'sessionstate', 'cfid', 'cftoken', 'oscsid', 'zenid',
  // Tokens and keys.
  'token', 'jwt', 'auth', 'authorization', 'key', 'apikey', 'authkey', 'accesskey', 'accesskeyid', 'awsaccesskeyid', 'secretkey', 'privatekey', 'licensekey', 'resetkey', 'reset', 'oauthverifier', 'samlresponse', 'samlart',
  // Passwords and one-time codes.
  'password', 'passwd', 'pwd', 'pass', 'pw', 'passphrase', 'passcode', 'otp', 'totp',
  // Signatures (AWS, Google Cloud, Azure SAS, CloudFront: `Signature`, `X-Amz-Signature`, `sig`).
  'signature', 'sig', 'hmac', 'secret',
  // Phone numbers.
  'phone', 'phonenumber', 'tel', 'telephone', 'mobile', 'msisdn',
]);

/**
 * Folded names ending so are listed too: `access_token`, `id_token`, `refresh_token`, `_token`,
 * `csrf_token`, `X-Amz-Security-Token`, `X-Amz-Signature`, `X-Amz-Credential`,
 * `X-Goog-Credential`, `client_secret`, `user[password]`, `x-api-key`; and classic ASP's names
 * starting `ASPSESSIONID` (`ASPSESSIONIDQQGGGTRB`).
 */
export const CREDENTIAL_SUFFIXES: readonly string[] = ['token', 'sessid', 'sessionid', 'password', 'passwd', 'secret', 'signature', 'credential', 'credentials', 'apikey'];

/** A name as compared with the list: percent-escapes decoded (several times, for a URL nested in a value), lower case, letters and digits only. */
export function foldName(name: string): string {
  let n = name;
  for (let i = 0; i < 4 && n.includes('%'); i++) n = n.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return n.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Every listed name, folded, and `code`: a text whose folded whole holds none of them holds no listed parameter. */
const ANY_LISTED = new RegExp([...CREDENTIAL_NAMES, ...CREDENTIAL_SUFFIXES, 'aspsessionid', 'code'].join('|'));
/** An escape of a letter, a digit or `%` (a double escape): none is left in a normal target, and one may spell a name. */
const ALNUM_ESCAPE = /%(?:25|3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa])/;

/**
 * Whether `text` may hold a listed name: the cheap test most targets stop at. A name's folded
 * form is a run of the text folded whole (lower case, other escapes and punctuation dropped), as
 * long as no escape spells a letter or digit (then the full reading decides).
 */
function mayHoldCredential(text: string): boolean {
  return ALNUM_ESCAPE.test(text) || ANY_LISTED.test(text.toLowerCase().replace(/%[0-9a-f]{2}|[^a-z0-9]/g, ''));
}

function isCredentialName(folded: string): boolean {
  return CREDENTIAL_NAMES.has(folded) || CREDENTIAL_SUFFIXES.some((suffix) => folded.endsWith(suffix)) || folded.startsWith('aspsessionid');
}

/** `=` as written in a value holding a query (`%3D`, `%253D`…), or raw. */
const NESTED_EQUALS = /=|%(?:25)*3[Dd]/;
/** What separates parameters inside a parameter: `;`, `?`, and `&`, `;`, `?`, `#` escaped once or more (a URL in a `next=`, a fragment a client sent). */
const NESTED_SEPARATOR = /(;|\?|%(?:25)*(?:26|3[Bb]|3[Ff]|23))/;
/** An ASP.NET cookieless session segment: `(S(lit3py55t21z5v55vlm25s55))`, `(A(…)F(…))`. */
const ASP_COOKIELESS = /^\((?:[A-Za-z]\([^()/]*\))+\)$/;

/** `name=value` pieces whose name is listed get `(redacted)` for a value; `code` and `state` together too. */
function redactPieces(pieces: string[], equals: (piece: string) => { at: number; length: number } | null, step: number): boolean {
  const names: string[] = [];
  for (let i = 0; i < pieces.length; i += step) {
    const eq = equals(pieces[i]);
    names[i] = eq === null ? '' : foldName(pieces[i].slice(0, eq.at));
  }
  const oauth = names.includes('code') && names.includes('state');
  let changed = false;
  for (let i = 0; i < pieces.length; i += step) {
    const eq = equals(pieces[i]);
    if (eq === null || eq.at + eq.length === pieces[i].length) continue;
    if (isCredentialName(names[i]) || (oauth && (names[i] === 'code' || names[i] === 'state'))) {
      const piece = pieces[i].slice(0, eq.at + eq.length) + REDACTED_VALUE;
      if (piece !== pieces[i]) {
        pieces[i] = piece;
        changed = true;
      }
    }
  }
  return changed;
}

const rawEquals = (piece: string) => {
  const at = piece.indexOf('=');
  return at === -1 ? null : { at, length: 1 };
};
/** A query parameter's `=`, when what precedes it is a name alone (not `a%3Db%23c`, left to `redactNested`). */
const queryEquals = (piece: string) => {
  const at = piece.indexOf('=');
  if (at === -1) return null;
  const name = piece.slice(0, at);
  return NESTED_SEPARATOR.test(name) || NESTED_EQUALS.test(name) ? null : { at, length: 1 };
};
const nestedEquals = (piece: string) => {
  const m = NESTED_EQUALS.exec(piece);
  return m === null ? null : { at: m.index, length: m[0].length };
};

/** Parameters inside one parameter of a query (`a=1;sid=…`, `next=%2Fcb%3Ftoken%3D…`). */
function redactNested(text: string): string {
  const pieces = text.split(NESTED_SEPARATOR);
  return redactPieces(pieces, nestedEquals, 2) ? pieces.join('') : text;
}

/**
 * A normalised target with the value of each credential, session or phone parameter replaced by
 * `(redacted)`, its name kept (what normaliseLogPath ends with; a migration applies it to stored
 * paths). Names are those of CREDENTIAL_NAMES and CREDENTIAL_SUFFIXES, compared folded
 * (`foldName`); they are looked for
 *
 * - in the query: `name=value` between `&`s, the value up to the next `&` (`token=a%3D%3D` goes
 *   whole); inside another parameter after `;`, `?`, or an escaped `&`, `;`, `?`, `#` (`a=1;sid=…`,
 *   a fragment sent as `%23access_token=…`, a URL in a value: `next=%2Fcb%3Ftoken%3D…`), with `=`
 *   raw or escaped (`%3D`), the value up to the next such separator;
 * - in the path: parameters after a `;` in a segment (`/cart;jsessionid=…`), and ASP.NET's
 *   cookieless sessions (`/(S(lit3py55…))/` becomes `/(S((redacted)))/`).
 *
 * An empty value stays empty. Idempotent; a target with no such name is returned as it is.
 */
export function redactCredentials(target: string): string {
  const q = target.indexOf('?');
  const semi = target.indexOf(';');
  const paren = target.indexOf('(');
  const pathEnd = q === -1 ? target.length : q;
  if ((q === -1 && semi === -1 && paren === -1) || ((paren === -1 || paren > pathEnd) && !mayHoldCredential(target))) return target;
  let path = target.slice(0, pathEnd);
  let pathChanged = false;
  if ((semi !== -1 && semi < pathEnd) || (paren !== -1 && paren < pathEnd)) {
    const segments = path.split('/');
    let changed = false;
    for (let i = 1; i < segments.length; i++) {
      const segment = segments[i];
      if (ASP_COOKIELESS.test(segment)) {
        segments[i] = segment.replace(/([A-Za-z])\([^()/]*\)/g, (whole, letter: string) => (whole === `${letter}()` ? whole : `${letter}(${REDACTED_VALUE})`));
        changed ||= segments[i] !== segment;
      } else if (segment.includes(';')) {
        const pieces = segment.split(';');
        pieces[0] = '';
        if (redactPieces(pieces, rawEquals, 1)) {
          pieces[0] = segment.slice(0, segment.indexOf(';'));
          segments[i] = pieces.join(';');
          changed = true;
        }
      }
    }
    if (changed) {
      path = segments.join('/');
      pathChanged = true;
    }
  }
  if (q === -1) return path;
  const pieces = target.slice(q + 1).split('&');
  let changed = redactPieces(pieces, queryEquals, 1);
  for (let i = 0; i < pieces.length; i++) {
    const eq = queryEquals(pieces[i]);
    // A listed parameter's whole value is gone already; others may hold parameters of their own.
    if (eq !== null && pieces[i].endsWith(REDACTED_VALUE) && isCredentialName(foldName(pieces[i].slice(0, eq.at)))) continue;
    const piece = redactNested(pieces[i]);
    if (piece !== pieces[i]) {
      pieces[i] = piece;
      changed = true;
    }
  }
  if (!changed && !pathChanged) return target;
  return `${path}?${pieces.join('&')}`;
}

/** What a secret-looking path segment of a fetch a person set off becomes (`redactTokens`). */
export const REDACTED_TOKEN = '(token)';

/**
 * A segment that reads as a secret rather than a name: a UUID, or a run of 16 or more letters and
 * digits, with at least two of each, unbroken by any separator (a reset or invitation token, a
 * signed id: `5ur-3d2f2f0c9b7e4a6c8d1e`, `ABCDEF0123456789TOKEN`). A slug's words are short
 * (`2026-11-30-my-first-post`), and stay.
 */
const TOKEN_SEGMENT = /^[^/]*(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|(?=[A-Za-z0-9]*[0-9][A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,})[^/]*$/;

/**
 * The path of a fetch a person set off (a link preview, a user-triggered fetcher: `isUserTriggered`)
 * with each secret-looking segment replaced by `(token)`: such a link was shared privately, and an
 * invitation's or a password reset's token in its path (`/reset/MQ/5ur-3d2f…/`) is a key to an
 * account. Crawlers' paths keep theirs: they found them on the public web (a credential or session
 * parameter's value is replaced in every path: `redactCredentials`).
 */
export function redactTokens(path: string): string {
  if (path.length < 17) return path;
  const segments = path.split('/');
  let changed = false;
  for (let i = 1; i < segments.length; i++) {
    if (segments[i].length >= 16 && TOKEN_SEGMENT.test(segments[i])) {
      segments[i] = REDACTED_TOKEN;
      changed = true;
    }
  }
  return changed ? segments.join('/') : path;
}

/** A normalised target with every e-mail address replaced by `(email)` (what normaliseLogPath ends with; a migration applies it to stored paths). */
export function redactEmails(target: string): string {
  return target.includes('@') || target.includes('%40') ? target.replace(EMAIL, REDACTED_EMAIL) : target;
}

/**
 * The escapes of a Combined or Common line's request as the bytes the client sent, percent-encoded:
 * nginx writes `"`, `\` and bytes outside printable ASCII as `\xHH`; Apache writes `\"`, `\\` and
 * `\xhh` (and `\n`, `\t`…). Only for those formats: in a JSON line a backslash is the client's own.
 */
export function decodeLogEscapes(target: string): string {
  if (!target.includes('\\')) return target;
  let out = '';
  for (let i = 0; i < target.length; i++) {
    const c = target[i];
    if (c !== '\\' || i + 1 === target.length) {
      out += c;
      continue;
    }
    const next = target[i + 1];
    if ((next === 'x' || next === 'X') && isHex(target.charCodeAt(i + 2)) && isHex(target.charCodeAt(i + 3))) {
      out += `%${target.slice(i + 2, i + 4).toUpperCase()}`;
      i += 3;
    } else {
      const control: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, b: 8, f: 12 };
      out += control[next] !== undefined ? escape(control[next]) : escape(next.charCodeAt(0) & 0xff);
      i += 1;
    }
  }
  return out;
}

/**
 * The longest path a URL statistic keeps, in UTF-8 bytes: a key of the server's log_url_stats
 * must fit a PostgreSQL B-tree entry (about 2,700 bytes with the other key columns). A longer
 * request target (a probe, a runaway query string) keeps its first bytes and a digest of the
 * whole (`storedPath`), so two long paths stay apart and one long path is one statistic wherever
 * it is met; the server and the mock store the same string.
 */
export const MAX_STORED_PATH = 2000;

const utf8 = new TextEncoder();
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a of the UTF-8 bytes, 16 hex digits: a digest any runtime computes at once (no crypto API). */
function fnv1a64(bytes: Uint8Array): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return hash.toString(16).padStart(16, '0');
}

/** `path` as stored: itself, or, past MAX_STORED_PATH bytes, its start, `…#` and a 16-hex-digit digest of the whole. */
export function storedPath(path: string): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most paths need no encoding to know they fit.
  if (path.length * 3 <= MAX_STORED_PATH) return path;
  const bytes = utf8.encode(path);
  if (bytes.length <= MAX_STORED_PATH) return path;
  // Cut before a character (UTF-8 continuation bytes are 10xxxxxx) and before a percent-escape.
  let end = MAX_STORED_PATH - 20;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  if (bytes[end - 1] === 0x25) end -= 1;
  else if (bytes[end - 2] === 0x25) end -= 2;
  return `${new TextDecoder().decode(bytes.subarray(0, end))}…#${fnv1a64(bytes)}`;
}
