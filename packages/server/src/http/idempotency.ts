/**
 * Idempotency-Key records (docs/decisions/idempotency.md). A key is claimed with
 * one INSERT … ON CONFLICT DO NOTHING on (team, key), never a read then a write, so two
 * concurrent requests with the same key cannot both run. The first answer is stored and
 * replayed; a key in flight answers 409, a key reused for another request 409 too.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { IDEMPOTENCY_KEY_RETENTION_MS } from '@siteaudit/schema/rules';
import { type IdempotencyClaim, type StoredAnswer } from '@siteaudit/schema/pipeline';
import type { Logger } from '../observability/logger.js';
import { retryTransient } from '../store/retry.js';

/** A request that crashed leaves its claim; after the lease another request may take it over. */
const LEASE_MS = 5 * 60 * 1000;
/** Expired keys are deleted at most this often, by the next claim (server clock). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** The records' shapes are the request pipeline's (`@siteaudit/schema`). */
export type StoredResponse = StoredAnswer;
export type Claim = IdempotencyClaim;

/** SHA-256 of a request's fingerprint text (`requestFingerprintText`, shared with the mock). */
export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class IdempotencyStore {
  private nextSweepAt = 0;
  /** Keys this process claimed and has not completed or released, by team then key. */
  private readonly inFlight = new Map<string, Set<string>>();

  constructor(
    private readonly knex: Knex,
    private readonly logger?: Logger,
  ) {}

  /** Each step is one statement on one row; a deadlock with another lock holder is retried whole. */
  claim(teamId: string, key: string, print: string, now: Date): Promise<Claim> {
    return retryTransient(() => this.tryClaim(teamId, key, print, now));
  }

  private async tryClaim(teamId: string, key: string, print: string, now: Date): Promise<Claim> {
    if (now.getTime() >= this.nextSweepAt) {
      // Keys are kept 24 h; without a sweep, keys never sent again would stay forever.
      this.nextSweepAt = now.getTime() + SWEEP_EVERY_MS;
      await this.sweep(now);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.knex('idempotency_keys')
        .insert({
          team_id: teamId,
          key,
          fingerprint: print,
          state: 'in_flight',
          locked_until: new Date(now.getTime() + LEASE_MS).toISOString(),
          expires_at: new Date(now.getTime() + IDEMPOTENCY_KEY_RETENTION_MS).toISOString(),
        })
        .onConflict(['team_id', 'key'])
        .ignore()
        .returning('key');
      if (inserted.length === 1) return this.claimed(teamId, key);

      const row = await this.knex('idempotency_keys').where({ team_id: teamId, key }).first();
      if (!row) continue; // expired and swept in between: try the insert again
      if (row.expires_at <= now.toISOString()) {
        await this.knex('idempotency_keys').where({ team_id: teamId, key, expires_at: row.expires_at }).delete();
        continue;
      }
      if (row.fingerprint !== print) return { kind: 'mismatch' };
      if (row.state === 'done') {
        return { kind: 'replay', response: { status: row.status, body: row.body, headers: JSON.parse(row.headers ?? '{}') } };
      }
      if (row.locked_until > now.toISOString()) return { kind: 'in_flight' };
      const taken = await this.knex('idempotency_keys')
        .where({ team_id: teamId, key, state: 'in_flight', locked_until: row.locked_until })
        .update({ locked_until: new Date(now.getTime() + LEASE_MS).toISOString() });
      return taken === 1 ? this.claimed(teamId, key) : { kind: 'in_flight' };
    }
    return { kind: 'in_flight' };
  }

  private claimed(teamId: string, key: string): Claim {
    let keys = this.inFlight.get(teamId);
    if (!keys) this.inFlight.set(teamId, (keys = new Set()));
    keys.add(key);
    return { kind: 'claimed' };
  }

  private settled(teamId: string, key: string): void {
    const keys = this.inFlight.get(teamId);
    keys?.delete(key);
    if (keys?.size === 0) this.inFlight.delete(teamId);
  }

  async complete(teamId: string, key: string, response: StoredResponse): Promise<void> {
    this.settled(teamId, key);
    await retryTransient(() =>
      this.knex('idempotency_keys')
        .where({ team_id: teamId, key })
        .update({ state: 'done', status: response.status, body: response.body, headers: JSON.stringify(response.headers) }),
    );
  }

  /** A request that failed unexpectedly frees its key so the client's retry can run. */
  async release(teamId: string, key: string): Promise<void> {
    this.settled(teamId, key);
    await retryTransient(() => this.knex('idempotency_keys').where({ team_id: teamId, key, state: 'in_flight' }).delete());
  }

  /**
   * At shutdown, after the grace period: frees the keys of requests that never completed, so the
   * client's retry runs (elsewhere or after the restart) instead of answering 409 for the lease.
   */
  async releaseInFlight(): Promise<void> {
    const claims = [...this.inFlight].flatMap(([teamId, keys]) => [...keys].map((key) => ({ teamId, key })));
    for (const { teamId, key } of claims) {
      // One left claimed answers 409 key_in_use until it expires: the operator should know.
      await this.release(teamId, key).catch((err) => this.logger?.warn({ err, team: teamId }, 'idempotency key not released at shutdown'));
    }
  }

  async sweep(now: Date): Promise<number> {
    return this.knex('idempotency_keys').where('expires_at', '<=', now.toISOString()).delete();
  }
}
