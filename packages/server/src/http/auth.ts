/**
 * Bearer token → caller (docs/decisions/scopes.md). Tokens are stored as SHA-256 hashes only.
 * `last_used_at` is kept in memory and written in batches, not on every request.
 *
 * A token's row (token, member, team) is cached for a short while, keyed by the token hash, so a
 * busy client does not pay a three-table join on every call (docs/benchmarks.md). Every operator
 * change made through `admin` (removing a member, changing a plan, rejoining) empties the cache
 * of every authenticator on that database at once. On PostgreSQL it also reaches every other
 * process at once, through LISTEN/NOTIFY (auth-invalidation.ts), and a cached row is then trusted
 * for LISTENING_CACHE_TTL_MS; on SQLite, or while the listening connection is down, a change made
 * by another process (the CLI on the same file) is seen within CACHE_TTL_MS. Expiry is checked
 * on every call against the server clock, cached or not.
 *
 * A well-formed token that matches no row is remembered as unknown for UNKNOWN_TTL_MS, so
 * repeating it costs no query: no row can appear for it later (tokens are random; a removed
 * member's tokens keep their rows and are not remembered). Failed authentications are counted per
 * client address (auth-throttle.ts): past the limit, 429 instead of 401.
 */
import type { Logger } from '../observability/logger.js';
import type { Knex } from 'knex';
import { bearerChallenge, type Role, type Scope } from '@siteaudit/schema';
import { DEFAULT_AUTH_FAILURES_PER_MINUTE, type PlanCatalogue } from '@siteaudit/schema/rules';
import { hashToken } from '../crypto/secret-box.js';
import { AuthListener, notifyAuthChange } from './auth-invalidation.js';
import { isPostgres } from '../store/database.js';
import { AuthFailureThrottle } from './auth-throttle.js';
import type { Caller } from './context.js';
import { ApiError } from './errors.js';

export const TOKEN_PREFIX = 'sa_';
/** RFC 6750: a 401 tells the client which scheme to use. */
const unauthenticated = (header: string | undefined) => new ApiError('unauthenticated', {}, { 'WWW-Authenticate': bearerChallenge(header) });
const TOKEN_SHAPE = /^sa_[A-Za-z0-9_-]{20,100}$/;
const FLUSH_EVERY_MS = 30_000;
/** How long a token's row is trusted without reading it again (real time, not the server clock). */
export const CACHE_TTL_MS = 2_000;
/**
 * The same while changes of every process are heard (PostgreSQL LISTEN): bounded still, for a
 * change made outside `admin` (an operator's SQL).
 */
export const LISTENING_CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;
/** How long a token with no row is answered 401 without reading the store again. */
export const UNKNOWN_TTL_MS = 30_000;

interface TokenRow {
  token_id: string;
  token_name: string;
  scopes: string;
  expires_at: string;
  token_created_at: string;
  member_id: string;
  member_name: string;
  email: string;
  role: string;
  removed_at: string | null;
  team_id: string;
  slug: string;
  team_name: string;
  plan: string;
}

interface CachedToken {
  row: TokenRow;
  scopes: Scope[];
  until: number;
}

/** The authenticators of each database, so that an operator change there reaches every cache. */
/**
 * What the operator's tasks call after a change to who may call, without a server (the CLI): on
 * PostgreSQL every server listening on the database forgets its cached tokens before this
 * resolves; on SQLite there is no other process to tell. A server hands `forgetTokens` instead.
 */
export async function announceAuthChange(knex: Knex): Promise<void> {
  if (isPostgres(knex)) await notifyAuthChange(knex);
}

export class Authenticator {
  private readonly lastUsed = new Map<string, string>();
  private readonly cache = new Map<string, CachedToken>();
  /** Hashes of tokens with no row, and until when (performance.now()) that answer holds. */
  private readonly unknown = new Map<string, number>();
  private readonly throttle: AuthFailureThrottle;
  /** Bumped by every invalidation: a read that started before one must not refill the cache. */
  private generation = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly listener: AuthListener | null;
  /** Whether changes of other processes are heard now (the cache may then be trusted longer). */
  private listening = false;
  private readonly logger?: Logger;
  private readonly reads: Knex;

  constructor(
    private readonly knex: Knex,
    private readonly plans: () => PlanCatalogue,
    /**
     * `listen`: hear other processes' changes (PostgreSQL); start() opens the connection. `reads`:
     * where a token is looked up (the read connections, store/database.ts); `knex` by default.
     */
    options: { failuresPerMinute?: number | null; logger?: Logger; listen?: boolean; reads?: Knex } = {},
  ) {
    this.logger = options.logger;
    this.reads = options.reads ?? knex;
    this.throttle = new AuthFailureThrottle(options.failuresPerMinute === undefined ? DEFAULT_AUTH_FAILURES_PER_MINUTE : options.failuresPerMinute);
    // `last_used_at` is advisory: a failed write is retried with the next flush.
    this.timer = setInterval(() => void this.flush().catch((err) => options.logger?.warn({ err }, 'token last_used_at not written')), FLUSH_EVERY_MS);
    this.timer.unref();
    this.listener = options.listen
      ? new AuthListener(knex, (listening) => {
          this.listening = listening;
          this.invalidate();
        }, options.logger)
      : null;
  }

  /** Opens the listening connection (when asked for); a failure is retried in the background. */
  async start(): Promise<void> {
    await this.listener?.start();
  }

  /**
   * Forgets every cached token after a change to who may call (admin's tasks call it): this
   * server's at once, and on PostgreSQL every process listening on the database, before this resolves.
   */
  async forgetTokens(): Promise<void> {
    this.invalidate();
    if (isPostgres(this.knex)) await notifyAuthChange(this.knex, this.listener, this.logger);
  }

  invalidate(): void {
    this.generation++;
    this.cache.clear();
    this.unknown.clear();
  }

  private rememberUnknown(hash: string, at: number): void {
    this.unknown.delete(hash);
    if (this.unknown.size >= CACHE_MAX_ENTRIES) this.unknown.delete(this.unknown.keys().next().value as string);
    this.unknown.set(hash, at + UNKNOWN_TTL_MS);
  }

  private async lookup(hash: string): Promise<CachedToken | null> {
    const at = performance.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > at) return cached;
    const unknownUntil = this.unknown.get(hash);
    if (unknownUntil !== undefined) {
      if (unknownUntil > at) return null;
      this.unknown.delete(hash);
    }
    const generation = this.generation;
    const row: TokenRow | undefined = await this.reads('tokens as k')
      .join('members as m', 'm.id', 'k.member_id')
      .join('teams as t', 't.id', 'k.team_id')
      .where('k.token_hash', hash)
      .first(
        'k.id as token_id', 'k.name as token_name', 'k.scopes', 'k.expires_at', 'k.created_at as token_created_at',
        'm.id as member_id', 'm.name as member_name', 'm.email', 'm.role', 'm.removed_at',
        't.id as team_id', 't.slug', 't.name as team_name', 't.plan',
      );
    // A removed member's token is not cached: rejoining makes it valid again.
    if (!row || row.removed_at) {
      this.cache.delete(hash);
      if (!row && generation === this.generation) this.rememberUnknown(hash, at);
      return null;
    }
    const entry: CachedToken = { row, scopes: Object.freeze(JSON.parse(row.scopes)) as Scope[], until: at + (this.listening ? LISTENING_CACHE_TTL_MS : CACHE_TTL_MS) };
    if (generation === this.generation) {
      this.cache.delete(hash);
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, entry);
    }
    return entry;
  }

  /**
   * The caller of a request, else 401 `unauthenticated` — or 429 `rate_limited` once `address`
   * (the client's, see docs/decisions/rate-limits.md) has failed too often this minute.
   */
  async authenticate(header: string | undefined, now: Date, address?: string): Promise<Caller> {
    const caller = await this.caller(header, now);
    if (!caller) throw this.throttle.failure(address, now, unauthenticated(header));
    return caller;
  }

  private async caller(header: string | undefined, now: Date): Promise<Caller | null> {
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const token = match?.[1];
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const found = await this.lookup(hashToken(token));
    const nowIso = now.toISOString();
    // A missing, expired or orphaned token all answer the same 401: nothing to probe.
    if (!found || found.row.expires_at <= nowIso) return null;
    const { row } = found;
    const plan = this.plans()[row.plan];
    if (!plan) return null;
    this.lastUsed.set(row.token_id, nowIso);
    return {
      tokenId: row.token_id,
      tokenName: row.token_name,
      scopes: found.scopes,
      tokenExpiresAt: row.expires_at,
      tokenCreatedAt: row.token_created_at,
      tokenLastUsedAt: nowIso, // this call is the latest use
      teamId: row.team_id,
      teamSlug: row.slug,
      teamName: row.team_name,
      plan,
      memberId: row.member_id,
      memberName: row.member_name,
      memberEmail: row.email,
      role: row.role as Role,
    };
  }

  /** The most recent use, including uses not yet written. */
  lastUsedAt(tokenId: string): string | undefined {
    return this.lastUsed.get(tokenId);
  }

  async flush(): Promise<void> {
    const pending = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    for (const [id, at] of pending) {
      await this.knex('tokens').where({ id }).andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', at)).update({ last_used_at: at });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.listener?.close();
    this.cache.clear();
    this.unknown.clear();
    await this.flush();
  }
}
