/**
 * Bearer token → caller (spec: Authentication). Tokens are stored as SHA-256 hashes only.
 * `last_used_at` is kept in memory and written in batches, not on every request.
 */
import type { Knex } from 'knex';
import type { PlanCatalogue, Role, Scope } from '@siteaudit/schema';
import { hashToken } from '../crypto/secret-box.js';
import type { Caller } from './context.js';
import { ApiError } from './errors.js';

export const TOKEN_PREFIX = 'sa_';
/** RFC 6750: a 401 tells the client which scheme to use. */
const unauthenticated = () => new ApiError('unauthenticated', {}, { 'WWW-Authenticate': 'Bearer realm="siteaudit"' });
const TOKEN_SHAPE = /^sa_[A-Za-z0-9_-]{20,100}$/;
const FLUSH_EVERY_MS = 30_000;

export class Authenticator {
  private readonly lastUsed = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly knex: Knex,
    private readonly plans: () => PlanCatalogue,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  async authenticate(header: string | undefined, now: Date): Promise<Caller> {
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const token = match?.[1];
    if (!token || !TOKEN_SHAPE.test(token)) throw unauthenticated();
    const row = await this.knex('tokens as k')
      .join('members as m', 'm.id', 'k.member_id')
      .join('teams as t', 't.id', 'k.team_id')
      .where('k.token_hash', hashToken(token))
      .first(
        'k.id as token_id', 'k.name as token_name', 'k.scopes', 'k.expires_at', 'k.created_at as token_created_at', 'k.last_used_at',
        'm.id as member_id', 'm.name as member_name', 'm.email', 'm.role', 'm.removed_at',
        't.id as team_id', 't.slug', 't.name as team_name', 't.plan',
      );
    const nowIso = now.toISOString();
    // A missing, expired or orphaned token all answer the same 401: nothing to probe.
    if (!row || row.removed_at || row.expires_at <= nowIso) throw unauthenticated();
    const plan = this.plans()[row.plan];
    if (!plan) throw unauthenticated();
    this.lastUsed.set(row.token_id, nowIso);
    return {
      tokenId: row.token_id,
      tokenName: row.token_name,
      scopes: JSON.parse(row.scopes) as Scope[],
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
    await this.flush();
  }
}
