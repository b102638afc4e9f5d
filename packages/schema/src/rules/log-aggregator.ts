/**
 * Folds access-log lines into what an import keeps (docs/decisions/logs.md): per URL × bot family
 * × verification, hits, last visit, status codes and bytes; per day × family × verification ×
 * status class, hits (humans and failed crawler claims only there: by the product's own
 * check those are not the bot they claim, so their paths are kept no more than a person's).
 * Shared by the server's parse threads and the mock.
 *
 * The hot path (docs/benchmarks.md, bench/logs) reads a Combined Log Format line in place, by
 * indexes into the decoded chunk: no regular expression, no string per line except, for a bot,
 * its path and (claims checked) its address. Everything it does not recognise exactly
 * (Common and JSON lines, escapes, odd times, absolute targets) goes to `parseLogLine`, the
 * reference, so both paths give the same answer by construction. Aggregate keys are numbers or
 * nested maps while folding; the `family \t verification \t path` keys are built once at the end.
 */
import { BOT_FAMILIES, type BotFamily } from '../resources/logs.js';
import { normaliseLogPath, redactTokens } from './log-paths.js';
import { addStatus, addUrlAggregate, botFamily, isRealDateTime, isUserTriggered, OPERATOR_OF, RANGE_OPERATORS, parseLogLine, type ClaimVerdict, type LogAggregate, type UrlAggregate, type VerifiedOperator } from './logs.js';

export const REFUSAL_SAMPLES = 10;

const DAY_MS = 86_400_000;
/** Distinct user agents remembered with their family: small on real logs, capped on hostile ones. */
const UA_CACHE_MAX = 50_000;
/** Longer user agents are classified each time, not remembered (a hostile log's cache stays small). */
const UA_CACHE_CHARS = 512;

/** What one URL statistic weighs in `heldSettled`/`heldPending`: one, plus one per 128 characters of path. */
const weight = (path: string) => 1 + (path.length >> 7);

/** Family indexes: the bot families, then `human`. */
const FAMILY_NAMES: readonly string[] = [...BOT_FAMILIES, 'human'];
const HUMAN = BOT_FAMILIES.length;
/** `settled[UNCHECKED + f]`: family `f`'s claims past the lookups, of an operator without published ranges (`not_applicable`). */
const UNCHECKED = HUMAN + 1;
const FAMILY_INDEX = new Map<BotFamily, number>(BOT_FAMILIES.map((f, i) => [f, i]));
/**
 * A link preview fetches the link a person shared, often in a private conversation (an invitation,
 * a password reset, `?email=…`), and a user-triggered fetcher (an AI assistant's `ChatGPT-User`,
 * Google's `FeedFetcher-Google`) the URL its user gave it: their path is kept without the query
 * string, and a secret-looking path segment (a reset or invitation token) becomes `(token)`
 * (`redactTokens`; docs/decisions/logs.md, Privacy). Crawlers find their URLs on the public web,
 * and keep theirs, with the value of a credential or session parameter replaced as in every path
 * (`redactCredentials`, in normaliseLogPath). `familyOf` adds this flag to the family index of such a user agent.
 */
const USER_TRIGGERED = 256;
const withoutQuery = (path: string) => {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
};
const CLASS_NAMES = ['2xx', '3xx', '4xx', '5xx', 'other'] as const;
/** Day counter keys: `day * DAY_KEY + family * 15 + verification * 5 + class` (VERIFICATION_NAMES order). */
const DAY_KEY = 1000;
const VERIFIED = 0;
const NOT_APPLICABLE = 1;
const UNVERIFIED = 2;
const VERIFICATION_NAMES = ['verified', 'not_applicable', 'unverified'] as const;

/** statusClass as an index into CLASS_NAMES. */
const classIndex = (status: number) => (status >= 200 && status < 600 ? ((status / 100) | 0) - 2 : 4);

const MONTHS = new Map(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m, i) => [m.charCodeAt(0) * 65536 + m.charCodeAt(1) * 256 + m.charCodeAt(2), i]));

/** The offset (minutes east of UTC) of the last time `clfTimeAt` read. */
let lastOffset = 0;

/** The `n` decimal digits at `i` as a number, or -1. */
function digits(text: string, i: number, n: number): number {
  let value = 0;
  for (let k = 0; k < n; k++) {
    const d = text.charCodeAt(i + k) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * `%t` at `i` (26 characters, `]` after them), as parseClfTime reads it, or NaN when the fast
 * path should leave the line to the reference parser.
 */
function clfTimeAt(text: string, i: number): number {
  if (text.charCodeAt(i + 26) !== 93 /* ] */) return NaN;
  for (const sep of [2, 6, 11, 14, 17, 20]) if (text.charCodeAt(i + sep) === 93) return NaN;
  const month = MONTHS.get(text.charCodeAt(i + 3) * 65536 + text.charCodeAt(i + 4) * 256 + text.charCodeAt(i + 5));
  const day = digits(text, i, 2);
  const year = digits(text, i + 7, 4);
  const hour = digits(text, i + 12, 2);
  const minute = digits(text, i + 15, 2);
  const second = digits(text, i + 18, 2);
  const offsetHours = digits(text, i + 22, 2);
  const offsetMinutes = digits(text, i + 24, 2);
  const sign = text.charCodeAt(i + 21);
  if (month === undefined || (day | year | hour | minute | second | offsetHours | offsetMinutes) < 0 || sign === 93) return NaN;
  // An impossible date goes to the reference parser, which refuses the line.
  if (hour > 23 || minute > 59 || second > 60 || day < 1 || day > 28) {
    if (!isRealDateTime(year, month, day, hour, minute, second)) return NaN;
  }
  const offset = (sign === 45 /* - */ ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  lastOffset = offset;
  return Date.UTC(year, month, day, hour, minute, second) - offset * 60_000;
}

/** End of a `\S+` token of printable ASCII starting at `i` and followed by a space, or -1. */
function tokenEnd(text: string, i: number, end: number): number {
  const start = i;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) return i > start ? i : -1;
    if (c < 33 || c > 127) return -1;
  }
  return -1;
}

/** Index of the `"` closing a quoted field starting at `i`, or -1 (also for an escape: the reference reads those). */
function quoteEnd(text: string, i: number, end: number): number {
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) return i;
    if (c === 92) return -1;
  }
  return -1;
}

/**
 * A copy of a string that does not keep alive the chunk it was cut from (V8 substrings point
 * into their parent): map keys kept for the whole parse must not pin 1 MiB chunks.
 */
const own = (s: string) => (' ' + s).slice(1);

/** Claims from one address outside the published ranges, waiting for reverse DNS. */
interface Pending {
  paths: Map<string, UrlAggregate>;
  /** Keyed like `dayCounts`, the verification part unused. */
  days: Map<number, number>;
}

export interface LogAggregatorOptions {
  /**
   * Called once for each address whose checked claim (`operators`) falls outside the published ranges
   * and will be looked up (the first `maxClaims` such addresses): the caller answers with `decide`.
   */
  onClaim?: (ip: string, operator: VerifiedOperator) => void;
  /** Addresses past this many are unverified at once, never held waiting. Default: no limit. */
  maxClaims?: number;
  /**
   * The operators whose claims are checked (default `RANGE_OPERATORS`: those whose published
   * ranges need no network). A family of another operator is `not_applicable`, as one whose
   * operator publishes nothing: where reverse DNS does not run, an Applebot claim cannot be checked.
   */
  operators?: readonly VerifiedOperator[];
}

export interface LogAggregator {
  /** Live view of the aggregate (its `urls` and `days` are built when read; spilled statistics are no longer in it). */
  aggregate: LogAggregate;
  /** One line (a trailing `\r` is dropped; empty lines are not counted). */
  add(line: string): void;
  /** The line `text[start, end)`, read in place. */
  addRange(text: string, start: number, end: number): void;
  /** Counts one more line, refused for `reason` without reading it (too long, cut by a truncated file). */
  refuse(reason: string): void;
  /**
   * The file's gzip stream stopped before its end after `inflatedBytes` bytes of text: `partial`,
   * its last line if that was cut mid-way, is refused as `truncated_line` (a line cut in its
   * user agent would read as a human's Common line, one cut in its size as a smaller answer).
   */
  truncated(inflatedBytes: number, partial: string): void;
  /** A plain copy of the aggregate. */
  result(): LogAggregate;
  /** The claims waiting for reverse DNS (at most `limit`), in the order they were met. */
  claims(limit: number): [string, VerifiedOperator][];
  /** Settles the waiting claims in place: `verified` passed reverse DNS, every other one is unverified (its paths dropped). */
  settle(verified: ReadonlySet<string>): void;
  /** Settles one address's claims now (its reverse-DNS answer); its later claims are settled as they come. */
  decide(ip: string, verdict: ClaimVerdict): void;
  /**
   * URL statistics held that `spill` would hand out (settled ones), each weighing one plus one
   * per 128 characters of its path, so that memory, not only the count, is bounded by a threshold.
   */
  heldSettled(): number;
  /** The same weight for the statistics of claims waiting for an answer (`decide` or `settle`). */
  heldPending(): number;
  /**
   * Hands out the settled URL statistics (as `urlEntries`) and forgets them: what a caller that
   * stores them as it goes (adding up parts of the same URL) does to keep memory bounded.
   * Claims waiting for an answer stay; day counts stay (a few per day).
   */
  spill(): Generator<[string, string, string, UrlAggregate]>;
  /** URL statistics as `[family, verification, path, value]`, without building a key per URL. */
  urlEntries(): Generator<[string, string, string, UrlAggregate]>;
  /** Day counts as `[date, family, verification, status class, hits]`. */
  dayEntries(): Generator<[string, string, string, string, number]>;
}

/**
 * Folds lines into an aggregate. `verify` tells, for a checked claim (`operators`), whether the address
 * is in the operator's published ranges (none for an operator that publishes none); a claim outside them is left `?<ip>` for reverse DNS.
 * Human requests are counted per day and status class only: no path, no address.
 */
export function createLogAggregator(verify: (operator: VerifiedOperator, ip: string) => boolean, options: LogAggregatorOptions = {}): LogAggregator {
  const { onClaim, maxClaims = Infinity, operators = RANGE_OPERATORS } = options;
  /** Per family, the operator checking its claims, or undefined for a family taken on its word. */
  const checkedBy: readonly (VerifiedOperator | undefined)[] = BOT_FAMILIES.map((f) => {
    const operator = OPERATOR_OF[f];
    return operator !== undefined && operators.includes(operator) ? operator : undefined;
  });
  const agg = { format: null, linesRead: 0, kept: 0, refused: 0, refusals: [], humanHits: 0, botHits: 0, from: null, to: null } as unknown as LogAggregate;
  const families = new Map<string, number>();
  /** Per bot family: settled URL statistics by path (verified or not applicable; `UNCHECKED`). A failed claim keeps none. */
  let settled: (Map<string, UrlAggregate> | undefined)[] = [];
  /** Per checked family: claims outside the ranges, by address, with their paths (dropped if the claim fails) and day counts. */
  const pending: (Map<string, Pending> | undefined)[] = [];
  /** Addresses outside the ranges met so far (at most `maxClaims`): null while waiting, then their answer. */
  const claimed = new Map<string, ClaimVerdict | null>();
  /** Whether a verdict verifies family `f`'s claims. */
  const passes = (verdict: ClaimVerdict, f: number) => (typeof verdict === 'boolean' ? verdict : verdict.includes(FAMILY_NAMES[f] as BotFamily));
  /** Weight (`weight`) of the entries in `settled`, and of the paths in `pending`. */
  let settledCount = 0;
  let pendingCount = 0;
  const dayCounts = new Map<number, number>();

  let built: { urls: Map<string, UrlAggregate>; days: Map<string, number> } | null = null;
  let replaced: { urls?: Map<string, UrlAggregate>; days?: Map<string, number> } = {};
  Object.defineProperty(agg, 'urls', {
    enumerable: true,
    get: () => replaced.urls ?? (built ??= build()).urls,
    set: (urls: Map<string, UrlAggregate>) => (replaced.urls = urls),
  });
  Object.defineProperty(agg, 'days', {
    enumerable: true,
    get: () => replaced.days ?? (built ??= build()).days,
    set: (days: Map<string, number>) => (replaced.days = days),
  });

  /** The verification of the settled statistics in `settled[slot]`. */
  const verificationOf = (slot: number) => (slot >= UNCHECKED || checkedBy[slot] === undefined ? 'not_applicable' : 'verified');

  function* urlEntries(): Generator<[string, string, string, UrlAggregate]> {
    for (let f = 0; f < HUMAN; f++) {
      const name = FAMILY_NAMES[f];
      for (const slot of [f, UNCHECKED + f]) for (const [path, value] of settled[slot] ?? []) yield [name, verificationOf(slot), path, value];
      for (const [ip, claims] of pending[f] ?? []) for (const [path, value] of claims.paths) yield [name, `?${ip}`, path, value];
    }
  }

  function* dayEntries(): Generator<[string, string, string, string, number]> {
    const dayNames = new Map<number, string>();
    const entry = (key: number, verification: string | null): [string, string, string, string, number] => {
      const day = Math.floor(key / DAY_KEY);
      const rest = key - day * DAY_KEY;
      let name = dayNames.get(day);
      if (name === undefined) dayNames.set(day, (name = new Date(day * DAY_MS).toISOString().slice(0, 10)));
      return [name, FAMILY_NAMES[Math.floor(rest / 15)], verification ?? VERIFICATION_NAMES[Math.floor((rest % 15) / 5)], CLASS_NAMES[rest % 5], 0];
    };
    for (const [key, hits] of dayCounts) {
      const e = entry(key, null);
      e[4] = hits;
      yield e;
    }
    for (let f = 0; f < HUMAN; f++) {
      for (const [ip, claims] of pending[f] ?? []) {
        for (const [key, hits] of claims.days) {
          const e = entry(key, `?${ip}`);
          e[4] = hits;
          yield e;
        }
      }
    }
  }

  function build() {
    const urls = new Map<string, UrlAggregate>();
    for (const [family, verification, path, value] of urlEntries()) urls.set(`${family}\t${verification}\t${path}`, value);
    const days = new Map<string, number>();
    for (const [date, family, verification, klass, hits] of dayEntries()) days.set(`${date}\t${family}\t${verification}\t${klass}`, hits);
    return { urls, days };
  }

  /**
   * Moves one address's waiting claims of family `f` into the settled statistics; a failed claim's
   * paths are dropped (only its day counts stay, as a person's).
   */
  function settleClaims(f: number, ip: string, claims: Pending, ok: boolean): void {
    for (const [path, value] of claims.paths) {
      pendingCount -= weight(path);
      if (!ok) continue;
      const into = (settled[f] ??= new Map());
      const prior = into.get(path);
      if (prior) addUrlAggregate(prior, value);
      else {
        into.set(path, value);
        settledCount += weight(path);
      }
    }
    // The claims' day keys carry `verified`; a failed one moves to `unverified`.
    for (const [key, hits] of claims.days) {
      const k = ok ? key : key + (UNVERIFIED - VERIFIED) * 5;
      dayCounts.set(k, (dayCounts.get(k) ?? 0) + hits);
    }
    claimed.set(ip, ok);
  }

  function settle(verified: ReadonlySet<string>): void {
    built = null;
    for (let f = 0; f < HUMAN; f++) {
      for (const [ip, claims] of pending[f] ?? []) settleClaims(f, ip, claims, verified.has(ip));
      pending[f] = undefined;
    }
  }

  function decide(ip: string, verdict: ClaimVerdict): void {
    if (!claimed.has(ip)) return;
    built = null;
    for (let f = 0; f < HUMAN; f++) {
      const claims = pending[f]?.get(ip);
      if (!claims) continue;
      pending[f]!.delete(ip);
      settleClaims(f, ip, claims, passes(verdict, f));
    }
    claimed.set(ip, verdict);
  }

  function spill(): Generator<[string, string, string, UrlAggregate]> {
    // Detached now, not at the first read: what is counted after this call belongs to the next spill.
    const part = settled;
    settled = [];
    settledCount = 0;
    built = null;
    return entriesOf(part);
  }

  function* entriesOf(part: (Map<string, UrlAggregate> | undefined)[]): Generator<[string, string, string, UrlAggregate]> {
    for (let slot = 0; slot < part.length; slot++) {
      const paths = part[slot];
      if (!paths) continue;
      const name = FAMILY_NAMES[slot >= UNCHECKED ? slot - UNCHECKED : slot];
      const verification = verificationOf(slot);
      // Each entry is let go once handed out, so memory shrinks as the caller stores them.
      for (const [path, value] of paths) {
        paths.delete(path);
        yield [name, verification, path, value];
      }
    }
  }

  function claims(limit: number): [string, VerifiedOperator][] {
    // By address, as pendingClaims gives them (an address claiming two operators is looked up once).
    const out = new Map<string, VerifiedOperator>();
    for (let f = 0; f < HUMAN; f++) {
      for (const ip of pending[f]?.keys() ?? []) {
        if (out.size === limit && !out.has(ip)) return [...out];
        out.set(ip, checkedBy[f]!);
      }
    }
    return [...out];
  }

  function familyOf(userAgent: string): number {
    let family = families.get(userAgent);
    if (family === undefined) {
      const found = botFamily(userAgent);
      family = found === null ? HUMAN : FAMILY_INDEX.get(found)! + (isUserTriggered(userAgent) ? USER_TRIGGERED : 0);
      if (families.size < UA_CACHE_MAX && userAgent.length <= UA_CACHE_CHARS) families.set(own(userAgent), family);
    }
    return family;
  }

  /** Counts one hit on `path`; true when it is a new entry. */
  function count(paths: Map<string, UrlAggregate>, path: string, time: number, status: number, bytes: number): boolean {
    const url = paths.get(path);
    if (url) {
      url.hits++;
      if (time > url.last) url.last = time;
      addStatus(url.statuses, status, 1);
      url.bytes += bytes;
      return false;
    }
    paths.set(own(path), { hits: 1, last: time, statuses: [status, 1], bytes });
    return true;
  }

  /** One kept request (`offset`: minutes east of UTC written on the line); the address and path are `text[start, end)` ranges, cut only for bots. */
  function record(time: number, offset: number, status: number, bytes: number, family: number, text: string, ipStart: number, ipEnd: number, pathStart: number, pathEnd: number): void {
    built = null;
    const queryless = family >= USER_TRIGGERED;
    if (queryless) family -= USER_TRIGGERED;
    agg.kept++;
    if (agg.from === null || time < agg.from) agg.from = time;
    if (agg.to === null || time > agg.to) agg.to = time;
    // The date in the offset written on the line (docs/decisions/logs.md, "Days"), not in UTC.
    const day = Math.floor((time + offset * 60_000) / DAY_MS);
    const klass = classIndex(status);
    if (family === HUMAN) {
      agg.humanHits++;
      const key = day * DAY_KEY + HUMAN * 15 + NOT_APPLICABLE * 5 + klass;
      dayCounts.set(key, (dayCounts.get(key) ?? 0) + 1);
      return;
    }
    agg.botHits++;
    const operator = checkedBy[family];
    let key = day * DAY_KEY + family * 15 + (operator === undefined ? NOT_APPLICABLE : VERIFIED) * 5 + klass;
    /** Where the path is counted: the family's statistics, or those of its claims left unchecked. */
    let slot = family;
    if (operator !== undefined) {
      const ip = text.slice(ipStart, ipEnd);
      if (!verify(operator, ip)) {
        const verdict = claimed.get(ip);
        let answer: boolean | null | undefined | 'unchecked' = verdict === undefined || verdict === null ? verdict : passes(verdict, family);
        if (answer === undefined) {
          // Past the lookups there will be, nothing waits for an answer. A claim outside an
          // operator's published ranges is unverified at once; one of an operator that publishes
          // none (Apple, Yandex, Baidu) was not checked: taken on its word, as with no reverse DNS.
          answer = claimed.size < maxClaims ? null : RANGE_OPERATORS.includes(operator) ? false : 'unchecked';
          if (answer === null) {
            claimed.set(own(ip), null);
            onClaim?.(ip, operator);
          }
        }
        if (answer === 'unchecked') {
          key += (NOT_APPLICABLE - VERIFIED) * 5;
          slot = UNCHECKED + family;
        }
        if (answer === false) {
          // Not the bot it claims: counted per day only, as a person is (no path).
          const k = key + (UNVERIFIED - VERIFIED) * 5;
          dayCounts.set(k, (dayCounts.get(k) ?? 0) + 1);
          return;
        }
        if (answer === null) {
          const byIp = (pending[family] ??= new Map());
          let claims = byIp.get(ip);
          if (!claims) byIp.set(own(ip), (claims = { paths: new Map(), days: new Map() }));
          const target = text.slice(pathStart, pathEnd);
          const path = queryless ? redactTokens(normaliseLogPath(withoutQuery(target))) : normaliseLogPath(target);
          if (count(claims.paths, path, time, status, bytes)) pendingCount += weight(path);
          claims.days.set(key, (claims.days.get(key) ?? 0) + 1);
          return;
        }
        // A verified answer: counted as a claim inside the ranges.
      }
    }
    dayCounts.set(key, (dayCounts.get(key) ?? 0) + 1);
    // Every spelling of one target counts as one path (RFC 3986 normalisation, log-paths.ts).
    const target = text.slice(pathStart, pathEnd);
    const path = queryless ? redactTokens(normaliseLogPath(withoutQuery(target))) : normaliseLogPath(target);
    if (count((settled[slot] ??= new Map()), path, time, status, bytes)) settledCount += weight(path);
  }

  /** The fast path: a Combined line without escapes, read in place; false leaves it to the reference. */
  function fast(text: string, start: number, end: number): boolean {
    const ipEnd = tokenEnd(text, start, end);
    if (ipEnd < 0) return false;
    const identEnd = tokenEnd(text, ipEnd + 1, end);
    if (identEnd < 0) return false;
    const userEnd = tokenEnd(text, identEnd + 1, end);
    if (userEnd < 0 || text.charCodeAt(userEnd + 1) !== 91 /* [ */) return false;
    const t = userEnd + 2;
    const time = clfTimeAt(text, t);
    if (Number.isNaN(time) || text.charCodeAt(t + 27) !== 32 || text.charCodeAt(t + 28) !== 34) return false;
    // "METHOD /path HTTP/x": the method is not kept; the target must be a path (an absolute one goes to the reference).
    const requestStart = t + 29;
    const requestEnd = quoteEnd(text, requestStart, end);
    if (requestEnd < 0) return false;
    const methodEnd = text.indexOf(' ', requestStart);
    if (methodEnd <= requestStart || methodEnd >= requestEnd || text.charCodeAt(methodEnd + 1) !== 47 /* / */) return false;
    let pathEnd = text.indexOf(' ', methodEnd + 1);
    if (pathEnd < 0 || pathEnd > requestEnd) pathEnd = requestEnd;
    // " 200 1234 "referer" "user agent"
    if (text.charCodeAt(requestEnd + 1) !== 32 || text.charCodeAt(requestEnd + 5) !== 32) return false;
    const status = digits(text, requestEnd + 2, 3);
    if (status < 0) return false;
    let i = requestEnd + 6;
    let bytes = 0;
    if (text.charCodeAt(i) === 45 /* - */) i++;
    else {
      const first = i;
      for (let d = text.charCodeAt(i) - 48; d >= 0 && d <= 9 && i < end; d = text.charCodeAt(++i) - 48) bytes = bytes * 10 + d;
      if (i === first || i - first > 15) return false;
    }
    if (text.charCodeAt(i) !== 32 || text.charCodeAt(i + 1) !== 34) return false;
    const refererEnd = quoteEnd(text, i + 2, end);
    if (refererEnd < 0 || text.charCodeAt(refererEnd + 1) !== 32 || text.charCodeAt(refererEnd + 2) !== 34) return false;
    const agentStart = refererEnd + 3;
    const agentEnd = quoteEnd(text, agentStart, end);
    if (agentEnd < 0) return false;
    agg.format ??= 'combined';
    record(time, lastOffset, status, bytes, familyOf(text.slice(agentStart, agentEnd)), text, start, ipEnd, methodEnd + 1, pathEnd);
    return true;
  }

  /** The line just counted in `linesRead` is refused. */
  function refused(reason: string): void {
    built = null;
    agg.refused++;
    if (agg.refusals.length < REFUSAL_SAMPLES) agg.refusals.push({ line: agg.linesRead, reason });
  }

  function refuse(reason: string): void {
    agg.linesRead++;
    refused(reason);
  }

  function truncated(inflatedBytes: number, partial: string): void {
    const cut = partial.replace(/\r$/, '').length > 0;
    if (cut) refuse('truncated_line');
    agg.truncation = { inflated_bytes: inflatedBytes, partial_line: cut };
  }

  function addRange(text: string, start: number, end: number): void {
    if (end > start && text.charCodeAt(end - 1) === 13 /* \r */) {
      if (end - start === 1) return;
      end--;
    }
    if (end === start) return;
    agg.linesRead++;
    if (fast(text, start, end)) return;
    const parsed = parseLogLine(text.slice(start, end));
    if (!parsed.ok) {
      refused(parsed.reason);
      return;
    }
    agg.format ??= parsed.format;
    const r = parsed.request;
    record(r.time, r.offset, r.status, r.bytes, familyOf(r.userAgent), r.ip + r.path, 0, r.ip.length, r.ip.length, r.ip.length + r.path.length);
  }

  return {
    aggregate: agg,
    add: (line) => addRange(line, 0, line.length),
    addRange,
    refuse,
    truncated,
    result: () => ({ ...agg, urls: agg.urls, days: agg.days }),
    claims,
    settle,
    decide,
    heldSettled: () => settledCount,
    heldPending: () => pendingCount,
    spill,
    urlEntries,
    dayEntries,
  };
}

/**
 * Sums aggregates of consecutive parts of one file (the parse threads' shares) into what one
 * aggregator reading the whole file gives: refusal line numbers shift by the lines before.
 */
export function mergeAggregates(parts: readonly LogAggregate[]): LogAggregate {
  const out: LogAggregate = { format: null, linesRead: 0, kept: 0, refused: 0, refusals: [], humanHits: 0, botHits: 0, from: null, to: null, urls: new Map(), days: new Map() };
  for (const part of parts) {
    out.format ??= part.format;
    for (const refusal of part.refusals) if (out.refusals.length < REFUSAL_SAMPLES) out.refusals.push({ line: refusal.line + out.linesRead, reason: refusal.reason });
    out.linesRead += part.linesRead;
    out.kept += part.kept;
    out.refused += part.refused;
    out.humanHits += part.humanHits;
    out.botHits += part.botHits;
    if (part.from !== null && (out.from === null || part.from < out.from)) out.from = part.from;
    if (part.to !== null && (out.to === null || part.to > out.to)) out.to = part.to;
    // Only a file's last part can end at a cut.
    if (part.truncation) out.truncation = part.truncation;
    for (const [key, value] of part.urls) {
      const prior = out.urls.get(key);
      if (!prior) out.urls.set(key, value);
      else addUrlAggregate(prior, value);
    }
    for (const [key, hits] of part.days) out.days.set(key, (out.days.get(key) ?? 0) + hits);
  }
  return out;
}
