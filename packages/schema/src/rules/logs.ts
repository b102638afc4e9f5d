/**
 * Access-log rules shared by the server's parse thread and the mock (docs/decisions/logs.md):
 * the line formats and the JSON field mapping, the bot families by user agent, and the
 * aggregation an import produces. Nothing here depends on Node.
 */
import type { BotFamily } from '../resources/logs.js';
import { decodeLogEscapes } from './log-paths.js';

/** Search and answer agents: blocking them removes the site from AI answers (error in the crawl). */
export const AI_SEARCH_AGENTS = ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Claude-User', 'Claude-SearchBot'] as const;
/** Training crawlers: blocking them is a legitimate choice, reported as info in the crawl. */
export const AI_TRAINING_CRAWLERS = ['GPTBot', 'ClaudeBot', 'Google-Extended', 'CCBot', 'Applebot-Extended', 'anthropic-ai', 'Bytespider', 'meta-externalagent', 'Meta-ExternalAgent', 'Amazonbot', 'cohere-ai', 'Diffbot', 'omgili', 'ImagesiftBot', 'Timpibot'] as const;
/** SEO tools' crawlers (backlink indexes, site auditors): bots, never humans. */
export const SEO_TOOLS = /AhrefsBot|AhrefsSiteAudit|SemrushBot|SiteAuditBot-Semrush|MJ12bot|DotBot|rogerbot|BLEXBot|Screaming Frog|serpstatbot|SeznamBot-Ahrefs|DataForSeoBot|Barkrowler|SEOkicks|linkdexbot|Sitebulb|spbot|MegaIndex|BacklinksExtendedBot/i;
/*
 * Crawler tokens, never a brand alone: a person in an app's browser carries the brand too
 * (`[Pinterest/iOS]`, `SogouMobileBrowser/`, `DaumApps/`, `YaBrowser/`, `baiduboxapp/`, `GSA/`),
 * and a request counted as a bot keeps its path and query string (docs/decisions/logs.md, Privacy).
 */
/** Link previews fetched when a URL is shared (`Pinterest/0.2` is Pinterest's preview fetcher, `WhatsApp/2…` WhatsApp's, at the start). */
export const SOCIAL_PREVIEWS = /facebookexternalhit|facebookcatalog|Twitterbot|LinkedInBot|Slackbot|Slack-ImgProxy|Discordbot|TelegramBot|^WhatsApp\/|Pinterestbot|Pinterest\/0\.|redditbot|SkypeUriPreview|Iframely|Embedly|vkShare|Mastodon\//;
/**
 * Fetchers a person sets off, beside the link previews: an AI assistant fetching the page its user
 * gave it (`ChatGPT-User`, `Claude-User`, `Perplexity-User`, `MistralAI-User`), Google's
 * user-triggered fetchers (`FeedFetcher-Google`, a feed someone subscribed to; `Google-Read-Aloud`).
 * Their URL comes from a person, often from a private message or a private feed, not from the
 * public web: like a link preview's, its query string is not kept (docs/decisions/logs.md, Privacy).
 */
export const USER_TRIGGERED_FETCHERS = /ChatGPT-User|Claude-User|Perplexity-User|MistralAI-User|FeedFetcher-Google|Google-Read-Aloud/;

/** Whether a request was set off by a person (a link preview or a user-triggered fetcher): its query string is not kept. */
export function isUserTriggered(userAgent: string): boolean {
  return USER_TRIGGERED_FETCHERS.test(userAgent) || SOCIAL_PREVIEWS.test(userAgent);
}
/** Search engines other than the ones with a family of their own (Sogou's spiders: `Sogou web spider`, `Sogou inst spider`, `Sogou Pic Spider`…; Daum's: `Daumoa`). */
export const OTHER_SEARCH_ENGINES = /SeznamBot|PetalBot|Sogou[\w -]{0,16}[Ss]pider|Qwantify|Qwantbot|Exabot|ia_archiver|MojeekBot|NaverBot|Yeti\/|coccocbot|YisouSpider|360Spider|Daumoa|BraveBot/;
/** This product's own crawler (packages/server/src/crawler/crawl-config.ts). */
export const OWN_CRAWLER = 'SiteAuditBot/';

export type LogFormat = 'combined' | 'common' | 'json';

/**
 * A line longer than this (in UTF-16 units, a trailing `\r` included) is refused as
 * `line_too_long` without being read: no access log line comes near it. The server and the mock alike.
 */
export const MAX_LOG_LINE_CHARS = 64 * 1024;

/** One request of a log, as far as the analysis needs it. */
export interface LogRequest {
  /** Epoch milliseconds. */
  time: number;
  /**
   * Minutes east of UTC of the offset the server wrote on the line (`+1300` is 780); 0 when the
   * line gives none (an epoch number, a `Z` time). The line's day is the date in this offset.
   */
  offset: number;
  ip: string;
  method: string;
  /**
   * Path and query string as logged; an absolute target is reduced to them, and a Combined or
   * Common line's escapes (`\x5C`) become percent-escapes. The aggregate normalises it (log-paths.ts).
   */
  path: string;
  status: number;
  bytes: number;
  userAgent: string;
}

export type ParsedLine = { ok: true; format: LogFormat; request: LogRequest } | { ok: false; reason: string };

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/**
 * Whether a written date and time exist (31 Feb and 25:61 do not): `Date.UTC` would roll them
 * over into another day, and the line would be counted on a day it was never written.
 * A leap second (:60) is accepted, as servers may write one.
 */
export function isRealDateTime(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  return day >= 1 && day <= new Date(Date.UTC(year, month + 1, 0)).getUTCDate() && hour < 24 && minute < 60 && second <= 60;
}

/** `10/Oct/2000:13:55:36 -0700` (Apache's and nginx's `%t` / `$time_local`) to epoch ms, or NaN (also for an impossible date). */
export function parseClfTime(text: string): number {
  if (text.length < 26) return NaN;
  const month = MONTHS[text.slice(3, 6)];
  if (month === undefined) return NaN;
  const [year, day, hour, minute, second] = [+text.slice(7, 11), +text.slice(0, 2), +text.slice(12, 14), +text.slice(15, 17), +text.slice(18, 20)];
  if (!isRealDateTime(year, month, day, hour, minute, second)) return NaN;
  const utc = Date.UTC(year, month, day, hour, minute, second);
  return utc - clfOffset(text) * 60_000;
}

/** The offset of a `%t` time (`-0700` is -420), in minutes east of UTC. */
export function clfOffset(text: string): number {
  const sign = text[21] === '-' ? -1 : 1;
  return sign * (+text.slice(22, 24) * 60 + +text.slice(24, 26));
}

const DAY_MS = 86_400_000;

/**
 * The day a request belongs to, as days since 1970-01-01: the calendar date in the offset the
 * server wrote on the line (what the server's own clock showed, and what GoAccess shows), not
 * the UTC date. A line written `28/Nov/2026:00:30:00 +1300` is on 28 November.
 */
export function localDay(time: number, offset: number): number {
  return Math.floor((time + offset * 60_000) / DAY_MS);
}

/** `localDay` as `YYYY-MM-DD`. */
export function localDate(time: number, offset: number): string {
  return new Date(localDay(time, offset) * DAY_MS).toISOString().slice(0, 10);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;
/** The offset at the end of an ISO 8601 time: `+13:00`, `-0800`, `+05`. */
const ISO_OFFSET = /([+-])(\d{2}):?(\d{2})?$/;

// host ident user [time] "request" status bytes ["referer" "user agent"]
const CLF = /^(\S+) \S+ \S+ \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\d+|-)(?: "(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)")?/;

/** The path and query of a request target (`/a?b`, or `http://host/a?b` from a proxy log). */
function targetPath(target: string): string | null {
  if (target.startsWith('/')) return target;
  if (/^https?:\/\//i.test(target)) {
    const slash = target.indexOf('/', target.indexOf('//') + 2);
    return slash === -1 ? '/' : target.slice(slash);
  }
  return target === '*' ? null : null;
}

function requestLine(line: string): { method: string; path: string } | null {
  const first = line.indexOf(' ');
  if (first <= 0) return null;
  const second = line.indexOf(' ', first + 1);
  const target = second === -1 ? line.slice(first + 1) : line.slice(first + 1, second);
  const path = targetPath(target);
  return path === null ? null : { method: line.slice(0, first), path };
}

/**
 * JSON lines: the first field present of each list is read (nginx `escape=json` and common
 * shippers' names). `request` ("GET /a HTTP/1.1") stands for method and path when they are absent.
 */
export const JSON_FIELD_MAP = {
  time: ['time', 'timestamp', '@timestamp', 'time_iso8601', 'time_local', 'date'],
  ip: ['remote_addr', 'client_ip', 'clientip', 'ip', 'remote_ip', 'client'],
  method: ['method', 'request_method', 'verb'],
  path: ['path', 'request_uri', 'uri', 'url'],
  request: ['request'],
  status: ['status', 'status_code', 'response', 'code'],
  bytes: ['body_bytes_sent', 'bytes_sent', 'bytes', 'size', 'response_bytes'],
  userAgent: ['http_user_agent', 'user_agent', 'userAgent', 'agent', 'ua'],
} as const;

function pick(record: Record<string, unknown>, names: readonly string[]): unknown {
  for (const name of names) if (record[name] !== undefined && record[name] !== null && record[name] !== '') return record[name];
  return undefined;
}

/** A JSON line's time and the offset it was written in (0 for epoch numbers and `Z`). */
function jsonTime(value: unknown): { time: number; offset: number } {
  if (typeof value === 'number') return { time: value > 1e12 ? value : value * 1000, offset: 0 };
  if (typeof value !== 'string') return { time: NaN, offset: 0 };
  if (/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:/.test(value)) return { time: parseClfTime(value), offset: clfOffset(value) };
  const iso = ISO_DATE.exec(value);
  if (iso && !isRealDateTime(+iso[1], +iso[2] - 1, +iso[3], +(iso[4] ?? 0), +(iso[5] ?? 0), +(iso[6] ?? 0))) return { time: NaN, offset: 0 };
  if (!iso || iso[4] === undefined) return { time: Date.parse(value), offset: 0 };
  const rest = value.slice(iso[0].length);
  const zone = ISO_OFFSET.exec(rest);
  if (zone) return { time: Date.parse(value), offset: (zone[1] === '-' ? -1 : 1) * (+zone[2] * 60 + +(zone[3] ?? 0)) };
  // No offset written: the time is read as written (UTC), not in the server process's zone.
  return { time: Date.parse(/[zZ]$/.test(rest) ? value : `${value}Z`), offset: 0 };
}

function parseJson(line: string): ParsedLine {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
  if (!record || typeof record !== 'object' || Array.isArray(record)) return { ok: false, reason: 'invalid_json' };
  const r = record as Record<string, unknown>;
  const { time, offset } = jsonTime(pick(r, JSON_FIELD_MAP.time));
  if (!Number.isFinite(time)) return { ok: false, reason: 'missing_time' };
  let method = pick(r, JSON_FIELD_MAP.method);
  let path: unknown = pick(r, JSON_FIELD_MAP.path);
  const req = pick(r, JSON_FIELD_MAP.request);
  if ((method === undefined || path === undefined) && typeof req === 'string') {
    const parsed = requestLine(req);
    if (parsed) {
      method ??= parsed.method;
      path ??= parsed.path;
    }
  }
  const p = typeof path === 'string' ? targetPath(path) : null;
  if (p === null) return { ok: false, reason: 'missing_path' };
  const status = Number(pick(r, JSON_FIELD_MAP.status));
  if (!Number.isInteger(status) || status < 100 || status > 999) return { ok: false, reason: 'missing_status' };
  const bytes = Number(pick(r, JSON_FIELD_MAP.bytes) ?? 0);
  const ua = pick(r, JSON_FIELD_MAP.userAgent);
  const ip = pick(r, JSON_FIELD_MAP.ip);
  return {
    ok: true,
    format: 'json',
    request: { time, offset, ip: typeof ip === 'string' ? ip : '', method: typeof method === 'string' ? method : 'GET', path: p, status, bytes: Number.isFinite(bytes) && bytes > 0 ? Math.floor(bytes) : 0, userAgent: typeof ua === 'string' ? ua : '' },
  };
}

/** Parses one line in the Combined or Common Log Format, or as a JSON object. */
export function parseLogLine(line: string): ParsedLine {
  if (line.charCodeAt(0) === 123 /* { */) return parseJson(line);
  const m = CLF.exec(line);
  if (!m) return { ok: false, reason: 'unrecognised_format' };
  const time = parseClfTime(m[2]);
  if (!Number.isFinite(time)) return { ok: false, reason: 'bad_time' };
  const req = requestLine(m[3]);
  if (!req) return { ok: false, reason: 'bad_request_line' };
  return {
    ok: true,
    format: m[6] === undefined ? 'common' : 'combined',
    // The server's escapes (`\x5C`) are the bytes the client sent, percent-encoded (log-paths.ts).
    request: { time, offset: clfOffset(m[2]), ip: m[1], method: req.method, path: decodeLogEscapes(req.path), status: +m[4], bytes: m[5] === '-' ? 0 : +m[5], userAgent: m[6] === undefined ? '' : m[6].replace(/\\(.)/g, '$1') },
  };
}

/**
 * Operators whose crawlers' claims are checked. Google and Bing publish their address ranges (kept
 * with the server, checked offline) and document reverse DNS; Apple, Yandex and Baidu document
 * reverse DNS only (docs/decisions/logs.md, "Bots, verified"), so their claims are checked only
 * where reverse DNS runs, and are `not_applicable` elsewhere (`RANGE_OPERATORS`).
 */
export type VerifiedOperator = 'google' | 'bing' | 'apple' | 'yandex' | 'baidu';
export const VERIFIED_OPERATORS: readonly VerifiedOperator[] = ['google', 'bing', 'apple', 'yandex', 'baidu'];
/** The operators whose published ranges verify a claim without any network question. */
export const RANGE_OPERATORS: readonly VerifiedOperator[] = ['google', 'bing'];
export const OPERATOR_OF: Partial<Record<BotFamily, VerifiedOperator>> = {
  googlebot: 'google',
  googlebot_smartphone: 'google',
  googlebot_image: 'google',
  googlebot_video: 'google',
  googlebot_news: 'google',
  google_other: 'google',
  bingbot: 'bing',
  applebot: 'apple',
  yandexbot: 'yandex',
  baiduspider: 'baidu',
};

/**
 * A reverse-DNS answer for one address: true or false for every claim it makes, or the families
 * whose claims it verifies (a name Google gives its user-triggered fetchers verifies a
 * FeedFetcher-Google claim, not a Googlebot one).
 */
export type ClaimVerdict = boolean | readonly BotFamily[];

const GOOGLE_OTHER = /GoogleOther|Google-InspectionTool|Storebot-Google|AdsBot-Google|Mediapartners-Google|APIs-Google|FeedFetcher-Google|Google-Safety/;

/**
 * The bot family of a user agent, or null for anything else (counted as human traffic). AI agents
 * come first (then the search engines, our own crawler, SEO tools, link previews): `Applebot-Extended` is not Applebot, `ChatGPT-User` is not a browser.
 */
export function botFamily(userAgent: string): BotFamily | null {
  if (userAgent === '') return null;
  for (const agent of AI_SEARCH_AGENTS) if (userAgent.includes(agent)) return 'ai_search';
  for (const agent of AI_TRAINING_CRAWLERS) if (userAgent.includes(agent)) return 'ai_training';
  if (userAgent.includes('Googlebot')) {
    if (userAgent.includes('Googlebot-Image')) return 'googlebot_image';
    if (userAgent.includes('Googlebot-Video')) return 'googlebot_video';
    if (userAgent.includes('Googlebot-News')) return 'googlebot_news';
    return /Mobile|Android/.test(userAgent) ? 'googlebot_smartphone' : 'googlebot';
  }
  if (GOOGLE_OTHER.test(userAgent)) return 'google_other';
  if (/bingbot|BingPreview|adidxbot|msnbot/i.test(userAgent)) return 'bingbot';
  if (userAgent.includes('Applebot')) return 'applebot';
  if (/Yandex(?:\w*Bot|Images|Video|Metrika|Renderer|Accessibility)/.test(userAgent)) return 'yandexbot';
  if (userAgent.includes('Baiduspider')) return 'baiduspider';
  if (userAgent.includes('DuckDuckBot') || userAgent.includes('DuckAssistBot')) return 'duckduckbot';
  if (userAgent.includes(OWN_CRAWLER)) return 'siteaudit';
  if (SEO_TOOLS.test(userAgent)) return 'seo_tool';
  if (SOCIAL_PREVIEWS.test(userAgent)) return 'social_preview';
  if (OTHER_SEARCH_ENGINES.test(userAgent)) return 'other_search_engine';
  return null;
}

export const AI_FAMILIES: readonly BotFamily[] = ['ai_search', 'ai_training'];

export function statusClass(status: number): '2xx' | '3xx' | '4xx' | '5xx' | 'other' {
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 300 && status < 400) return '3xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500 && status < 600) return '5xx';
  return 'other';
}

/** Verification of one request: settled, or waiting for the reverse-DNS step with the address. */
export type Verification = 'verified' | 'unverified' | 'not_applicable' | `?${string}`;

/**
 * Hits by status code as flat pairs `[code, hits, code, hits…]`. An object keyed by code would
 * read better, but V8 gives an object with a key like `404` sparse elements of kilobytes: with a
 * million distinct URLs that alone is gigabytes (bench/logs).
 */
export type StatusCounts = number[];

export function addStatus(counts: StatusCounts, code: number, hits: number): void {
  for (let i = 0; i < counts.length; i += 2) {
    if (counts[i] === code) {
      counts[i + 1] += hits;
      return;
    }
  }
  counts.push(code, hits);
}

/** The counts as `{ "200": 12, "404": 1 }` (what is stored and read). */
export function statusRecord(counts: StatusCounts): Record<string, number> {
  const record: Record<string, number> = {};
  for (let i = 0; i < counts.length; i += 2) record[counts[i]] = counts[i + 1];
  return record;
}

export interface UrlAggregate {
  hits: number;
  last: number;
  statuses: StatusCounts;
  bytes: number;
}

/**
 * A gzip stream that stops before its end (a file cut short): what decompressed is kept and
 * counted; how much the missing end held cannot be known (gzip writes the size only in its
 * trailer, which is gone).
 */
export interface LogTruncation {
  /** Bytes of text recovered (decompressed) before the cut. */
  inflated_bytes: number;
  /** The last line stops mid-way: refused as `truncated_line`, never read as a shorter line. */
  partial_line: boolean;
}

/** What parsing an import gives; `?<ip>` verifications are settled by the reverse-DNS step. */
export interface LogAggregate {
  format: LogFormat | null;
  linesRead: number;
  kept: number;
  refused: number;
  refusals: { line: number; reason: string }[];
  humanHits: number;
  botHits: number;
  from: number | null;
  to: number | null;
  /** `family \t verification \t path`: bots, and claims waiting for reverse DNS (`?<ip>`); a failed claim (`unverified`) has none, `days` alone counts it. */
  urls: Map<string, UrlAggregate>;
  /** `YYYY-MM-DD \t family \t verification \t status class` (family `human` included). */
  days: Map<string, number>;
  /** Set when the file's gzip stream was cut short (absent for a complete file). */
  truncation?: LogTruncation;
}

/** Adds `value` into `into` (two imports' or two threads' statistics of one URL). */
export function addUrlAggregate(into: UrlAggregate, value: UrlAggregate): void {
  into.hits += value.hits;
  into.last = Math.max(into.last, value.last);
  into.bytes += value.bytes;
  for (let i = 0; i < value.statuses.length; i += 2) addStatus(into.statuses, value.statuses[i], value.statuses[i + 1]);
}

/**
 * Settles the `?<ip>` verifications with the reverse-DNS answers (`verified` holds the addresses
 * that passed) and drops the addresses: what is stored never names one. A claim that fails keeps
 * its day counts only, no path (by this check it is not the bot it claims; a person's paths are
 * not kept either).
 */
export function settleVerifications(agg: LogAggregate, verified: ReadonlySet<string>): void {
  const settle = (v: string) => (v.startsWith('?') ? (verified.has(v.slice(1)) ? 'verified' : 'unverified') : v);
  const urls = new Map<string, UrlAggregate>();
  for (const [key, value] of agg.urls) {
    const [family, verification, ...rest] = key.split('\t');
    const settled = settle(verification);
    if (settled === 'unverified') continue;
    const k = `${family}\t${settled}\t${rest.join('\t')}`;
    const prior = urls.get(k);
    if (!prior) urls.set(k, { ...value, statuses: [...value.statuses] });
    else addUrlAggregate(prior, value);
  }
  const days = new Map<string, number>();
  for (const [key, hits] of agg.days) {
    const [day, family, verification, klass] = key.split('\t');
    const k = `${day}\t${family}\t${settle(verification)}\t${klass}`;
    days.set(k, (days.get(k) ?? 0) + hits);
  }
  agg.urls = urls;
  agg.days = days;
}

/** The addresses waiting for reverse DNS, by operator. */
export function pendingClaims(agg: LogAggregate): Map<string, VerifiedOperator> {
  const out = new Map<string, VerifiedOperator>();
  for (const key of agg.urls.keys()) {
    const [family, verification] = key.split('\t', 2);
    if (verification.startsWith('?')) out.set(verification.slice(1), OPERATOR_OF[family as BotFamily]!);
  }
  return out;
}

/** Whether a logged path carries a query string (the budget's `parameterised` bucket). */
export function isParameterised(path: string): boolean {
  return path.includes('?');
}
