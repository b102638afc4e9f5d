/**
 * The in-process job engine (the embedded default on SQLite; jobs/job-runner.ts is its interface).
 * Durable jobs: every job is a row of the `jobs` table (state, attempts, run_at, lease), so
 * queued work survives a restart; this in-process runner claims due rows and runs them with
 * p-queue. Several processes may run it on one database (docs/reliability.md, "Crashes and
 * shutdown"):
 * - a claim takes a lease with an owner (this runner) and a fencing token (`lease_token`,
 *   incremented at every claim); a heartbeat renews it, and a job is taken over only once its
 *   lease has expired, so a running job is never run twice by live processes;
 * - every write a run makes about its job goes through `lease.fence(trx)`: it renews the lease
 *   only while the token is still this run's, inside the caller's transaction (the row lock on
 *   PostgreSQL, the single writer on SQLite keep a takeover out until it commits), so a stalled
 *   worker that lost its lease can no longer write;
 * - a singleton key allows one queued-or-running job per key (a unique partial index).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import PQueue from 'p-queue';
import { pino } from 'pino';
import type { Logger } from '../observability/logger.js';
import type { Dialect } from '../store/database.js';
import { JobInterruptedError, LeaseLostError, singletonKeyOf, type JobCount, type JobHandler, type JobLease, type JobOptions, type JobRunner, type JobState } from './job-runner.js';
import { transaction } from '../store/retry.js';

export { JobInterruptedError, LeaseLostError } from './job-runner.js';
export type { EnqueueOptions, JobContext, JobHandler, JobLease, JobResult, JobRunner } from './job-runner.js';

interface JobRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  lease_token: number;
}

const POLL_MS = 200;
const DEFAULT_LEASE_MS = 60_000;

export interface JobRunnerOptions {
  knex: Knex;
  dialect: Dialect;
  /** run_at (business time, which tests move). */
  clock: () => Date;
  /** Lease times: real time by default, so a clock moved by tests never expires a live lease. */
  leaseClock?: () => number;
  /** Failures with their cause: an attempt retried (warn), a job failed for good (error). Default silent. */
  logger?: Logger;
  /** A job failed for good (metrics). */
  onFailed?: (kind: string) => void;
}

export function createTableJobRunner(options: JobRunnerOptions): JobRunner {
  const { knex, dialect, clock } = options;
  const leaseClock = options.leaseClock ?? Date.now;
  const owner = randomUUID();
  const definitions = new Map<string, JobHandler<unknown> & JobOptions>();
  // One queue per kind, so slow work of one kind (a crawl, a slow webhook receiver) never holds
  // up the others.
  const queues = new Map<string, PQueue>();
  const allIdle = () => Promise.all([...queues.values()].map((q) => q.onIdle()));
  const busy = () => [...queues.values()].some((q) => q.pending > 0 || q.size > 0);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;
  let stopped = false;
  let started = false;
  let wake = false;
  const log = options.logger ?? pino({ level: 'silent' });
  const report = (err: unknown) => log.error({ err }, 'job runner error');
  const leaseMsOf = (kind: string) => definitions.get(kind)?.leaseMs ?? DEFAULT_LEASE_MS;
  const leaseUntil = (kind: string) => new Date(leaseClock() + leaseMsOf(kind)).toISOString();

  /** Ids of the jobs whose runs are still going in this runner (a fenced one included). */
  const active = new Set<string>();

  /** Claims due jobs of a kind; on PostgreSQL with SKIP LOCKED so several processes never take the same. */
  async function claim(kind: string, limit: number): Promise<JobRow[]> {
    const now = clock().toISOString();
    return transaction(knex, async (trx) => {
      const due = trx('jobs').where({ state: 'queued', kind }).andWhere('run_at', '<=', now).orderBy('run_at').limit(limit).select('id', 'kind', 'payload', 'attempts', 'lease_token');
      // A job this runner lost while its run stalled is another's now, not a second run here.
      if (active.size > 0) due.whereNotIn('id', [...active]);
      if (dialect === 'postgres') due.forUpdate().skipLocked();
      const claimed: JobRow[] = [];
      for (const row of (await due) as JobRow[]) {
        const token = Number(row.lease_token) + 1;
        const taken = await trx('jobs')
          .where({ id: row.id, state: 'queued' })
          .update({ state: 'running', attempts: row.attempts + 1, lease_owner: owner, lease_token: token, lease_until: leaseUntil(kind) });
        if (taken === 1) claimed.push({ ...row, lease_token: token });
      }
      return claimed;
    });
  }

  async function execute(row: JobRow): Promise<void> {
    active.add(row.id);
    try {
      await runClaimed(row);
    } finally {
      active.delete(row.id);
    }
  }

  async function runClaimed(row: JobRow): Promise<void> {
    const definition = definitions.get(row.kind)!;
    const attempt = row.attempts + 1;
    const payload = JSON.parse(row.payload);
    /** This run's own row: no write matches once another claim has moved the token on. */
    const mine = (db: Knex | Knex.Transaction = knex) => db('jobs').where({ id: row.id, lease_token: row.lease_token, state: 'running' });
    const lost = new AbortController();
    const lose = () => lost.abort(new LeaseLostError(row.id));
    const lease: JobLease = {
      async fence(trx) {
        const held = await mine(trx).update({ lease_until: leaseUntil(row.kind) });
        if (held !== 1) {
          lose();
          throw new LeaseLostError(row.id);
        }
      },
      write(work) {
        return transaction(knex, async (trx) => {
          await lease.fence(trx);
          return work(trx);
        });
      },
    };
    const fail = async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const failed = await mine().update({ state: 'failed', last_error: message, lease_until: null, lease_owner: null });
      // The cause goes to the operator's log; onFailed shows the caller a catalogue code.
      log.error({ err: error, job: row.id, kind: row.kind, attempts: attempt }, 'job failed');
      if (failed !== 1) return;
      options.onFailed?.(row.kind);
      await definition.onFailed?.(payload, message, error).catch((err) => log.error({ err, job: row.id, kind: row.kind }, 'job failure not recorded'));
    };
    if (attempt > (definition.maxAttempts ?? 3)) return fail(new JobInterruptedError(row.id));

    // Renewed well within the lease, so a crash is noticed within one lease and a live run never is.
    const leaseMs = leaseMsOf(row.kind);
    const heartbeat = setInterval(() => {
      void mine()
        .update({ lease_until: leaseUntil(row.kind) })
        .then((held) => {
          if (held === 0) lose();
        })
        // The next beat tries again; only a lease left unrenewed for its whole length is lost.
        .catch((err) => log.warn({ err, job: row.id, kind: row.kind }, 'job lease not renewed'));
    }, Math.max(10, Math.min(5_000, leaseMs / 6)));
    heartbeat.unref();
    try {
      const result = await definition.run(payload, { id: row.id, attempt, signal: AbortSignal.any([controller.signal, lost.signal]), lease });
      if (lost.signal.aborted) return;
      if (result && 'retryAt' in result) {
        await mine().update({ state: 'queued', run_at: result.retryAt.toISOString(), lease_until: null, lease_owner: null, attempts: 0 });
      } else {
        await mine().delete();
      }
    } catch (error) {
      // Another process owns the job now: nothing of this run may be written.
      if (lost.signal.aborted || error instanceof LeaseLostError) {
        log.warn({ job: row.id, kind: row.kind }, 'job lease lost: another process runs it now');
        return;
      }
      if (stopped) {
        // Interrupted by shutdown: back to the queue as it was, for another process or the next start.
        await mine().update({ state: 'queued', attempts: row.attempts, lease_until: null, lease_owner: null });
        return;
      }
      if (attempt >= (definition.maxAttempts ?? 3)) return fail(error);
      const backoff = Math.min(60_000, 1000 * 2 ** attempt);
      log.warn({ err: error, job: row.id, kind: row.kind, attempt, retry_in_ms: backoff }, 'job attempt failed, retrying');
      await mine().update({
        state: 'queued',
        last_error: error instanceof Error ? error.message : String(error),
        lease_until: null,
        lease_owner: null,
        run_at: new Date(clock().getTime() + backoff).toISOString(),
      });
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Jobs whose lease expired (their process crashed or stalled) go back to the queue. Never this
   * runner's own: it knows they are alive.
   */
  async function recover(): Promise<void> {
    await knex('jobs')
      .where('state', 'running')
      .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<', new Date(leaseClock()).toISOString()))
      .andWhere((q) => q.whereNull('lease_owner').orWhereNot('lease_owner', owner))
      .update({ state: 'queued', lease_until: null, lease_owner: null });
  }

  async function poll(): Promise<void> {
    await recover();
    for (const [kind, queue] of queues) {
      if (stopped) break;
      const free = queue.concurrency - queue.pending - queue.size;
      if (free <= 0) continue;
      const rows = await claim(kind, free);
      // A finished job frees a slot: look for the next one at once rather than at the next tick.
      for (const row of rows) void queue.add(() => execute(row).catch(report).finally(kick));
    }
  }

  function schedule(delay = POLL_MS): void {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      polling = poll()
        .catch(report)
        .finally(() => {
          polling = null;
          schedule(wake ? 0 : POLL_MS);
          wake = false;
        });
    }, delay);
    timer.unref();
  }

  function kick(): void {
    if (polling) wake = true;
    else if (timer) {
      clearTimeout(timer);
      timer = null;
      schedule(0);
    }
  }

  async function dueCount(): Promise<number> {
    const [{ count }] = await knex('jobs')
      .whereIn('kind', [...definitions.keys()])
      .andWhere((q) => q.where('state', 'running').orWhere((q2) => q2.where('state', 'queued').andWhere('run_at', '<=', clock().toISOString())))
      .count({ count: '*' });
    return Number(count);
  }

  return {
    register({ name: kind, options }, handler) {
      const definition = { ...options, ...(handler as JobHandler<unknown>) };
      definitions.set(kind, definition);
      queues.set(kind, new PQueue({ concurrency: definition.concurrency ?? 2 }));
    },
    async enqueue(jobKind, payload, opts = {}) {
      const kind = jobKind.name;
      const singletonKey = singletonKeyOf(jobKind, opts.singletonKey);
      const id = randomUUID();
      const now = clock();
      const insert = (opts.trx ?? knex)('jobs').insert({
        id,
        kind,
        payload: JSON.stringify(payload),
        state: 'queued',
        attempts: 0,
        run_at: (opts.runAt ?? now).toISOString(),
        created_at: now.toISOString(),
        singleton_key: singletonKey ?? null,
      });
      // Only the singleton index can conflict on a fresh id: the store decides, no read first.
      const inserted = singletonKey ? await insert.onConflict().ignore().returning('id') : (await insert, [{ id }]);
      if (inserted.length === 0) return null;
      if (!opts.trx) kick();
      else void opts.trx.executionPromise?.then(kick, () => undefined);
      return id;
    },
    async idle() {
      for (;;) {
        await allIdle();
        if (polling) await polling;
        if ((await dueCount()) === 0 && !busy()) return;
        kick();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async cancel({ name: kind }, id) {
      return (await knex('jobs').where({ id, kind, state: 'queued' }).delete()) === 1;
    },
    async pending({ name: kind }) {
      const rows = (await knex('jobs').where({ kind, state: 'queued' }).orderBy('run_at').select('id', 'payload', 'run_at')) as { id: string; payload: string; run_at: string | Date }[];
      return rows.map((row) => ({ id: row.id, payload: JSON.parse(row.payload), runAt: new Date(row.run_at) }));
    },
    async counts() {
      const rows = (await knex('jobs').select('kind', 'state').count({ count: '*' }).groupBy('kind', 'state')) as { kind: string; state: JobState; count: number | string }[];
      return rows.map((row): JobCount => ({ kind: row.kind, state: row.state, count: Number(row.count) }));
    },
    async start() {
      stopped = false;
      started = true;
      schedule(0);
    },
    ready: () => started && !stopped,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      controller.abort();
      if (polling) await polling; // never rejects: the poll chain reports its own errors
      await allIdle();
    },
  };
}
