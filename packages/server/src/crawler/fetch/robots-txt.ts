/**
 * robots.txt parser and matcher: RFC 9309 plus the leniencies of Google's parser
 * (github.com/google/robotstxt, robots.cc) that webmasters rely on. Pure: no I/O. The reasons
 * for each rule are in docs/decisions/robots-txt.md.
 *
 * The file is read once into groups of precompiled rules; a decision then costs one
 * normalisation of the URL's path and a scan of the chosen group's rules, longest first.
 * Wildcards are matched by a greedy left-to-right search of the literal pieces between `*`s,
 * which is exact for `*`-only globs and linear in the path per piece: no RegExp, no backtracking.
 */

/** RFC 9309 §2.5: the parsing limit MUST be at least 500 KiB; we read exactly that much. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/** robots.cc (RobotsTxtParser::Parse): a line keeps its first 2083 * 8 - 1 bytes, the rest is ignored. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

export type DirectiveKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay' | 'unknown';

export interface Directive {
  /** 1-based line number; \n, \r and \r\n each end a line. */
  line: number;
  kind: DirectiveKind;
  /** The key as written (for unknown records). */
  key: string;
  /** Value with surrounding whitespace and any comment removed; patterns are not yet normalised. */
  value: string;
}

interface Rule {
  allow: boolean;
  /** Normalised pattern, as written after normalisation (its length is the rule's priority). */
  pattern: string;
  /** Literal pieces between `*`s. */
  pieces: string[];
  /** The pattern ended with `$`. */
  anchored: boolean;
}

interface Group {
  /** Product tokens (lowercased, Google-extracted) of its user-agent lines; '*' for the global one. */
  agents: string[];
  rules: Rule[];
  crawlDelay: number | null;
}

/** The rules that apply to one product token. */
export interface RobotsRules {
  /** Whether a URL path (already extracted; see `robotsPathOf`) may be fetched. */
  allows(path: string): boolean;
  /** Crawl-delay of the group that applies, in seconds. */
  crawlDelay: number | null;
}

export interface RobotsTxt {
  /** Sitemap URLs, anywhere in the file, in order, without duplicates. */
  sitemaps: string[];
  /** The rules for `token` (case-insensitive): its groups merged, else the `*` groups, else none. Cached per token. */
  rulesFor(token: string): RobotsRules;
}

// ---------------------------------------------------------------- lines

// ignoreBOM keeps a BOM in the text: only the one that starts the file is skipped (below).
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
const BOM = [0xef, 0xbb, 0xbf];

function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

/** Reads the records of a robots.txt file, in order. */
export function readDirectives(input: string | Uint8Array): Directive[] {
  let bytes = toBytes(input);
  if (bytes.length > ROBOTS_MAX_BYTES) {
    // Past the limit; a line cut in two could turn `/private-area` into `/priv`, so it is dropped whole.
    bytes = bytes.subarray(0, ROBOTS_MAX_BYTES);
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] !== 0x0a && bytes[end - 1] !== 0x0d) end--;
    bytes = bytes.subarray(0, end);
  }
  // robots.cc skips any prefix of a UTF-8 byte order mark, even a partial one.
  let start = 0;
  while (start < BOM.length && start < bytes.length && bytes[start] === BOM[start]) start++;

  const out: Directive[] = [];
  let line = 0;
  let lineStart = start;
  for (let i = start; i <= bytes.length; i++) {
    const c = i < bytes.length ? bytes[i] : 0x0a;
    if (c !== 0x0a && c !== 0x0d) continue;
    line++;
    const end = Math.min(i, lineStart + MAX_LINE_BYTES);
    const directive = parseLine(UTF8.decode(bytes.subarray(lineStart, end)), line);
    if (directive) out.push(directive);
    if (c === 0x0d && bytes[i + 1] === 0x0a) i++;
    lineStart = i + 1;
    if (i >= bytes.length) break;
  }
  return out;
}

const WS = /[ \t]/;

function trimWs(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s[a] === ' ' || s[a] === '\t' || s[a] === '\v' || s[a] === '\f')) a++;
  while (b > a && (s[b - 1] === ' ' || s[b - 1] === '\t' || s[b - 1] === '\v' || s[b - 1] === '\f')) b--;
  return s.slice(a, b);
}

function parseLine(raw: string, line: number): Directive | null {
  const hash = raw.indexOf('#');
  const text = trimWs(hash === -1 ? raw : raw.slice(0, hash));
  if (text === '') return null;
  let sep = text.indexOf(':');
  if (sep === -1) {
    // Google: a missing colon is accepted when the line is exactly "key value" (robots.cc GetKeyAndValueFrom).
    const m = WS.exec(text);
    if (!m) return null;
    const rest = trimWs(text.slice(m.index));
    if (WS.test(rest)) return null;
    sep = m.index;
  }
  const key = trimWs(text.slice(0, sep));
  if (key === '') return null;
  return { line, kind: kindOf(key), key, value: trimWs(text.slice(sep + 1)) };
}

/** Record names, case-insensitive; Google also reads these frequent misspellings (robots.cc KeyIs*). */
const KEYS: [DirectiveKind, string[]][] = [
  ['user-agent', ['user-agent', 'useragent', 'user agent']],
  ['allow', ['allow']],
  ['disallow', ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']],
  ['sitemap', ['sitemap', 'site-map']],
  ['crawl-delay', ['crawl-delay']],
];

function kindOf(key: string): DirectiveKind {
  const k = key.toLowerCase();
  // Google compares the start of the key only ("Disallowed:" is a disallow).
  for (const [kind, names] of KEYS) if (names.some((n) => k.startsWith(n))) return kind;
  return 'unknown';
}

// ---------------------------------------------------------------- percent-encoding

const HEX = '0123456789ABCDEF';

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

/** Reserved characters a query carries as data (RFC 3986 §3.4 `:` `@` `/` `?`; and `'`, which URL parsers escape there). */
function isQueryData(c: number): boolean {
  return c === 0x3a || c === 0x40 || c === 0x2f || c === 0x3f || c === 0x27;
}

/** Octets a URI may not carry as they are: controls, space, non-ASCII, and RFC 3986's excluded `"<>\^`{|}`. */
function mustEncode(c: number): boolean {
  return c <= 0x20 || c >= 0x7f || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x5c || c === 0x5e || c === 0x60 || c === 0x7b || c === 0x7c || c === 0x7d;
}

function encodeByte(b: number): string {
  return `%${HEX[b >> 4]}${HEX[b & 15]}`;
}

const ENCODER = new TextEncoder();
/** Anything normalise() could change; most paths have none of it. */
const NEEDS_WORK = /[^!#&-)+-~]|[$*"<>\\^`{|}]/;

/**
 * One canonical form for a path or a pattern (RFC 9309 §2.2.2): `%xx` of an unreserved octet is
 * decoded, other escapes get uppercase hex, octets a URI cannot carry (non-ASCII as UTF-8) are
 * percent-encoded. `*` and `$` in a URL are data, so they take their escaped form, which
 * `%2A`/`%24` in a pattern also keep (§2.2.3). In the query, `%3A %40 %2F %3F %27` are decoded,
 * so `?u=https://x` and `?u=https%3A%2F%2Fx` compare equal (§2.2.2, second row of the table).
 *
 * `forPattern`: `*` stays a wildcard, and the query is taken to start at the first `?` or `*`
 * (a wildcard may cross into the query).
 */
export function normalise(input: string, forPattern: boolean): string {
  if (!NEEDS_WORK.test(input)) return input;
  const bytes = ENCODER.encode(input);
  let out = '';
  let inQuery = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      const v = hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]);
      i += 2;
      out += isUnreserved(v) || (inQuery && isQueryData(v)) ? String.fromCharCode(v) : encodeByte(v);
    } else if (c === 0x2a) {
      if (forPattern) inQuery = true;
      out += forPattern ? '*' : '%2A';
    } else if (c === 0x24) {
      out += '%24';
    } else if (mustEncode(c)) {
      out += encodeByte(c);
    } else {
      if (c === 0x3f) inQuery = true;
      out += String.fromCharCode(c);
    }
  }
  return out;
}

// ---------------------------------------------------------------- paths

/**
 * The path and query of a URL, as the rules see it (RFC 9309 §2.2.2: matching starts with the
 * first octet of the path). Anything that is not an absolute URL is read the way robots.cc
 * GetPathParamsQuery reads it; the result always starts with `/`.
 */
export function robotsPathOf(url: string | URL): string {
  if (typeof url !== 'string') return normalise(url.pathname + url.search, false);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      const u = new URL(url);
      return normalise(u.pathname + u.search, false);
    } catch {
      // fall through to the lenient reading
    }
  }
  return normalise(lenientPath(url), false);
}

function lenientPath(url: string): string {
  const from = url.startsWith('//') ? 2 : 0;
  const early = firstOf(url, '/?;', from);
  let protocolEnd = url.indexOf('://', from);
  if (protocolEnd === -1 || (early !== -1 && early < protocolEnd)) protocolEnd = from;
  else protocolEnd += 3;
  const pathStart = firstOf(url, '/?;', protocolEnd);
  if (pathStart === -1) return '/';
  const hash = url.indexOf('#', from);
  if (hash !== -1 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return path.startsWith('/') ? path : `/${path}`;
}

function firstOf(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i])) return i;
  return -1;
}

// ---------------------------------------------------------------- matching

function compileRule(allow: boolean, value: string): Rule | null {
  // An empty pattern matches nothing (RFC 9309 §2.2.2: "Disallow:" disallows nothing).
  if (value === '') return null;
  let pattern = normalise(value, true);
  // `$` ends the pattern only as its last character (§2.2.3); elsewhere it was escaped above.
  const anchored = value.endsWith('$');
  if (anchored) pattern = `${pattern.slice(0, -3)}$`;
  const body = anchored ? pattern.slice(0, -1) : pattern;
  return { allow, pattern, pieces: body.split('*'), anchored };
}

/** Whether `path`, known to start with the rule's first piece, matches the rest of it. */
function matchesRest(rule: Rule, path: string): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0];
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let pos = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const piece = pieces[i];
    if (piece === '') continue;
    const at = path.indexOf(piece, pos);
    if (at === -1) return false;
    pos = at + piece.length;
  }
  // The earliest placement of every piece leaves the most room for the rest, so greedy is exact.
  const tail = pieces[last];
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, pos) !== -1;
}

/** Most octets first; Allow first on a tie (§2.2.2: "the allow rule SHOULD be used"). */
function better(a: Rule, b: Rule): boolean {
  return a.pattern.length > b.pattern.length || (a.pattern.length === b.pattern.length && a.allow && !b.allow);
}

/** Rules by the literal text before their first `*`: a walk down the path meets only rules whose prefix it has. */
interface Node {
  next: Map<number, Node> | null;
  rules: Rule[];
}

function rulesOf(groups: Group[]): RobotsRules {
  const root: Node = { next: null, rules: [] };
  for (const rule of groups.flatMap((g) => g.rules)) {
    let node = root;
    const prefix = rule.pieces[0];
    for (let i = 0; i < prefix.length; i++) {
      node.next ??= new Map();
      let child = node.next.get(prefix.charCodeAt(i));
      if (!child) node.next.set(prefix.charCodeAt(i), (child = { next: null, rules: [] }));
      node = child;
    }
    node.rules.push(rule);
  }
  const delay = groups.find((g) => g.crawlDelay !== null)?.crawlDelay ?? null;
  return {
    crawlDelay: delay,
    allows(path: string): boolean {
      let best: Rule | null = null;
      let node: Node | undefined = root;
      for (let i = 0; ; i++) {
        for (const rule of node.rules) if ((!best || better(rule, best)) && matchesRest(rule, path)) best = rule;
        if (i === path.length || !node.next) break;
        node = node.next.get(path.charCodeAt(i));
        if (!node) break;
      }
      return best ? best.allow : true;
    },
  };
}

// ---------------------------------------------------------------- groups

/**
 * The product token a user-agent line names: the value up to its first character outside
 * [a-zA-Z0-9_-] (Google, robots.cc ExtractUserAgent: "Googlebot/2.1" and "Foo Bar" name googlebot
 * and foo). Google also stops at a digit, which makes "MJ12bot" name "MJ"; we keep digits, since
 * real crawler names have them and no token without digits is affected. A `*` followed by a space
 * is still the global group (robots.cc HandleUserAgent).
 */
function agentOf(value: string): string {
  if (value === '*' || /^\*\s/.test(value)) return '*';
  const m = /^[A-Za-z0-9_-]*/.exec(value);
  return (m ? m[0] : '').toLowerCase();
}

/** RFC 9309 §2.2.1: a product token is made of letters, `_` and `-`. */
export function isValidProductToken(token: string): boolean {
  return /^[A-Za-z_-]+$/.test(token);
}

/** Parses a robots.txt file (text or raw bytes). */
export function parseRobotsTxt(input: string | Uint8Array): RobotsTxt {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  // A user-agent line after a rule starts a new group; other records do not end one (§2.2.4).
  let sawRule = false;
  for (const d of readDirectives(input)) {
    switch (d.kind) {
      case 'user-agent':
        if (!current || sawRule) {
          current = { agents: [], rules: [], crawlDelay: null };
          groups.push(current);
          sawRule = false;
        }
        current.agents.push(agentOf(d.value));
        break;
      case 'allow':
      case 'disallow': {
        // Rules before the first user-agent line belong to no group and are ignored (§2.2.2).
        if (!current) break;
        sawRule = true;
        const rule = compileRule(d.kind === 'allow', d.value);
        if (rule) current.rules.push(rule);
        break;
      }
      case 'crawl-delay':
        if (current && current.crawlDelay === null && /^\d+(\.\d+)?$|^\.\d+$/.test(d.value)) current.crawlDelay = Number(d.value);
        break;
      case 'sitemap':
        if (d.value !== '' && !sitemaps.includes(d.value)) sitemaps.push(d.value);
        break;
      default:
        break;
    }
  }

  const cache = new Map<string, RobotsRules>();
  return {
    sitemaps,
    rulesFor(token: string): RobotsRules {
      const key = token.toLowerCase();
      let rules = cache.get(key);
      if (!rules) {
        const own = key === '' || key === '*' ? [] : groups.filter((g) => g.agents.includes(key));
        rules = rulesOf(own.length > 0 ? own : groups.filter((g) => g.agents.includes('*')));
        cache.set(key, rules);
      }
      return rules;
    },
  };
}
