/**
 * Durable jobs: every job is a row of the `jobs` table (state, attempts, run_at, lease), so
 * queued work survives a restart; this in-process runner claims due rows and runs them with
 * p-queue. The interface (register, enqueue, idle) is what a PostgreSQL queue engine such as
 * pg-boss would implement to share the same jobs across several processes.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import PQueue from 'p-queue';
import type { Dialect } from '../store/database.js';

export interface JobContext {
  id: string;
  /** 1 on the first run. */
  attempt: number;
  signal: AbortSignal;
}

/** What a handler may ask for instead of finishing: to run again later (polling, retries). */
export type JobResult = void | { retryAt: Date };

export interface JobDefinition<P> {
  run(payload: P, ctx: JobContext): Promise<JobResult>;
  /** Attempts before a throwing job is marked failed. Default 3. */
  maxAttempts?: number;
  /** Called once a job has failed for good, or was found running after a crash with no attempts left. */
  onFailed?(payload: P, error: string): Promise<void>;
  /** Lease length; a job still running past it is considered crashed. Default 10 minutes. */
  leaseMs?: number;
  /** Jobs of this kind run at once in this process. Default 2. */
  concurrency?: number;
}

export interface JobRunner {
  register<P>(kind: string, definition: JobDefinition<P>): void;
  enqueue<P>(kind: string, payload: P, options?: { runAt?: Date; trx?: Knex.Transaction }): Promise<string>;
  /** Resolves when no job is running and none is due. */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

interface JobRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
}

const POLL_MS = 200;

export function createJobRunner(options: { knex: Knex; dialect: Dialect; clock: () => Date; onError?: (error: unknown) => void }): JobRunner {
  const { knex, dialect, clock } = options;
  const definitions = new Map<string, JobDefinition<unknown>>();
  // One queue per kind, so slow work of one kind (a crawl, a slow webhook receiver) never holds
  // up the others.
  const queues = new Map<string, PQueue>();
  const allIdle = () => Promise.all([...queues.values()].map((q) => q.onIdle()));
  const busy = () => [...queues.values()].some((q) => q.pending > 0 || q.size > 0);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;
  let stopped = false;
  let wake = false;
  const report = options.onError ?? ((error: unknown) => console.error('job runner', error));

  /** Claims due jobs of a kind; on PostgreSQL with SKIP LOCKED so several processes never take the same. */
  async function claim(kind: string, limit: number): Promise<JobRow[]> {
    const now = clock().toISOString();
    return knex.transaction(async (trx) => {
      const due = trx('jobs').where({ state: 'queued', kind }).andWhere('run_at', '<=', now).orderBy('run_at').limit(limit).select('id', 'kind', 'payload', 'attempts');
      if (dialect === 'postgres') due.forUpdate().skipLocked();
      const rows = (await due) as JobRow[];
      for (const row of rows) {
        const lease = definitions.get(row.kind)?.leaseMs ?? 600_000;
        await trx('jobs').where({ id: row.id }).update({ state: 'running', attempts: row.attempts + 1, lease_until: new Date(clock().getTime() + lease).toISOString() });
      }
      return rows;
    });
  }

  async function execute(row: JobRow): Promise<void> {
    const definition = definitions.get(row.kind)!;
    const attempt = row.attempts + 1;
    // Renew the lease while the job runs, so a long crawl is never mistaken for a crashed one.
    const leaseMs = definition.leaseMs ?? 600_000;
    const heartbeat = setInterval(() => {
      void knex('jobs')
        .where({ id: row.id, state: 'running' })
        .update({ lease_until: new Date(clock().getTime() + leaseMs).toISOString() })
        .catch(() => undefined);
    }, Math.max(1000, leaseMs / 3));
    heartbeat.unref();
    try {
      const result = await definition.run(JSON.parse(row.payload), { id: row.id, attempt, signal: controller.signal });
      if (result && 'retryAt' in result) {
        await knex('jobs').where({ id: row.id }).update({ state: 'queued', run_at: result.retryAt.toISOString(), lease_until: null, attempts: 0 });
      } else {
        await knex('jobs').where({ id: row.id }).delete();
      }
    } catch (error) {
      if (stopped) {
        // Interrupted by shutdown: back to the queue as it was, to run again at the next start.
        await knex('jobs').where({ id: row.id }).update({ state: 'queued', attempts: row.attempts, lease_until: null });
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= (definition.maxAttempts ?? 3)) {
        await knex('jobs').where({ id: row.id }).update({ state: 'failed', last_error: message, lease_until: null });
        await definition.onFailed?.(JSON.parse(row.payload), message).catch(report);
      } else {
        const backoff = Math.min(60_000, 1000 * 2 ** attempt);
        await knex('jobs').where({ id: row.id }).update({ state: 'queued', last_error: message, lease_until: null, run_at: new Date(clock().getTime() + backoff).toISOString() });
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  let recovered = false;
  /**
   * Jobs left running by a crashed process go back to the queue once their lease is over. SQLite
   * is one process: at start every running job is an orphan and resumes at once.
   */
  async function recover(): Promise<void> {
    const orphans = knex('jobs').where('state', 'running');
    if (recovered || dialect === 'postgres') orphans.andWhere('lease_until', '<', clock().toISOString());
    await orphans.update({ state: 'queued', lease_until: null });
    recovered = true;
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
    register(kind, definition) {
      definitions.set(kind, definition as JobDefinition<unknown>);
      queues.set(kind, new PQueue({ concurrency: definition.concurrency ?? 2 }));
    },
    async enqueue(kind, payload, opts = {}) {
      const id = randomUUID();
      const now = clock();
      await (opts.trx ?? knex)('jobs').insert({
        id,
        kind,
        payload: JSON.stringify(payload),
        state: 'queued',
        attempts: 0,
        run_at: (opts.runAt ?? now).toISOString(),
        created_at: now.toISOString(),
      });
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
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      controller.abort();
      if (polling) await polling.catch(() => undefined);
      await allIdle();
    },
  };
}
