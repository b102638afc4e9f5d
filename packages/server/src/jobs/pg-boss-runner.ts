/**
 * The job engine on PostgreSQL: pg-boss 10, in a schema of its own derived from the server's
 * (`<schema>_pgboss`, `pgboss` for `public`), so servers on different schemas never share queues.
 * - Enqueue runs pg-boss's insert on the caller's transaction connection: the job commits or rolls
 *   back with the change that asked for it.
 * - One queue per kind, created with the options the kind was declared with (`defineJob`), when
 *   the kind is first registered or sent; this engine knows no kind by name.
 * - Singleton kinds live in `stately` queues: one queued and one running job per key at most, so
 *   a chain that re-queues itself while running keeps exactly one next link.
 * - run-at is business time (the server clock, which tests move): a job is sent to start when the
 *   real clock reaches it; with an injected clock it is re-checked every half second instead.
 * - stop() aborts the running handlers and hands each job back at once (a fresh copy queued, the
 *   interrupted one completed), so another process takes it without waiting for an expiry.
 * A crashed process's job is retried by pg-boss once it expires (`expireInSeconds`, from the
 * kind's `expireMs`, else its `leaseMs`); work that must be taken over sooner and never written twice (a crawl)
 * keeps a lease of its own (docs/reliability.md, "Crawls across workers").
 */
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import { pino } from 'pino';
import type { Logger } from '../observability/logger.js';
import { transaction } from '../store/retry.js';
import { JobInterruptedError, LeaseLostError, singletonKeyOf, type JobCount, type JobHandler, type JobKind, type JobLease, type JobOptions, type JobRunner, type JobState } from './job-runner.js';

export interface PgBossRunnerOptions {
  knex: Knex;
  clock: () => Date;
  /** False: enqueue only, no maintenance (admin commands). Default true. */
  supervise?: boolean;
  /** True when the server clock is not real time (tests): run-at is re-checked every half second. */
  injectedClock?: boolean;
  logger?: Logger;
  onFailed?: (kind: string) => void;
}

/** What a job carries in pg-boss: the payload, and the business time it is due. */
interface Envelope {
  payload: unknown;
  runAt: string;
  attempts: number;
}

const RECHECK_MS = 500;
/** How often an idle loop looks for work queued by another process. */
const POLL_MS = 500;
const REAL_CLOCK_RECHECK_MS = 5 * 60_000;
const DEFAULT_LEASE_MS = 60_000;

type Db = PgBoss.Db;

type Connection = { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
type Client = { acquireConnection(): Promise<Connection>; releaseConnection(c: unknown): Promise<void> };

/** pg-boss's queries on a connection of `db` (the pool, or the caller's transaction). */
function executor(db: Knex | Knex.Transaction): Db {
  const client = db.client as Client;
  const pooled = !db.isTransaction;
  return {
    async executeSql(text, values) {
      const connection = await client.acquireConnection();
      try {
        return (await connection.query(text, values)) as { rows: any[] };
      } catch (error) {
        // A failed multi-statement command of pg-boss may leave its transaction open: never
        // hand the pool a connection in an aborted transaction.
        if (pooled) await connection.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        await client.releaseConnection(connection);
      }
    },
  };
}

/** `work` while holding a session advisory lock: processes starting together install pg-boss one at a time. */
async function exclusively<T>(knex: Knex, key: string, work: () => Promise<T>): Promise<T> {
  const client = knex.client as Client;
  const connection = await client.acquireConnection();
  try {
    await connection.query('select pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await work();
    } finally {
      await connection.query('select pg_advisory_unlock(hashtext($1))', [key]);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

export async function bossSchemaFor(knex: Knex): Promise<string> {
  const { rows } = (await knex.raw('select current_schema() as schema')) as { rows: { schema: string }[] };
  const schema = rows[0]?.schema ?? 'public';
  return schema === 'public' ? 'pgboss' : `${schema}_pgboss`;
}

export function createPgBossRunner(options: PgBossRunnerOptions): JobRunner {
  const { knex, clock } = options;
  const log = options.logger ?? pino({ level: 'silent' });
  const recheckMs = options.injectedClock ? RECHECK_MS : REAL_CLOCK_RECHECK_MS;
  const handlers = new Map<string, JobHandler<unknown> & JobOptions>();
  /** Kinds seen by register or send: their queues are made once pg-boss is open. */
  const kinds = new Map<string, JobKind<unknown>>();
  /** Queues known to exist (made here or found at open). */
  const queues = new Set<string>();
  const controller = new AbortController();
  const running = new Set<Promise<unknown>>();
  let schema = '';
  let boss: PgBoss | null = null;
  let opening: Promise<PgBoss> | null = null;
  let started = false;
  let stopped = false;
  /** Idle work loops of this process by kind: woken when a job of theirs is queued here, or at stop. */
  const idleLoops = new Map<string, Set<() => void>>();
  const wake = (name: string) => {
    for (const done of [...(idleLoops.get(name) ?? [])]) done();
  };
  const loops: Promise<void>[] = [];

  /** Starts pg-boss (its schema and queues) on first use: an API-only node enqueues without working. */
  function open(): Promise<PgBoss> {
    opening ??= (async () => {
      schema = await bossSchemaFor(knex);
      const instance = new PgBoss({ db: executor(knex), schema, supervise: options.supervise ?? true, schedule: false, migrate: true });
      instance.on('error', (err) => log.error({ err }, 'job engine error'));
      await exclusively(knex, `siteaudit_pgboss:${schema}`, async () => {
        await instance.start();
        for (const queue of await instance.getQueues()) queues.add(queue.name);
        for (const kind of kinds.values()) await createQueue(instance, kind);
      });
      boss = instance;
      return instance;
    })();
    return opening;
  }

  /** The queue of `kind`, made with its declared options unless it exists. */
  async function createQueue(instance: PgBoss, kind: JobKind<unknown>): Promise<void> {
    if (queues.has(kind.name)) return;
    const { singleton, expireMs, leaseMs } = kind.options;
    await instance.createQueue(kind.name, {
      name: kind.name,
      policy: singleton ? 'stately' : 'standard',
      // pg-boss has no heartbeat: a job is expired (and retried) only past its longest run.
      expireInSeconds: Math.ceil((expireMs ?? leaseMs ?? DEFAULT_LEASE_MS) / 1000),
      // Retries are this runner's (attempts in the envelope): pg-boss retries only a crash.
      retryLimit: 100,
      retryDelay: 0,
      retentionDays: 7,
    });
    queues.add(kind.name);
  }

  /** Makes the queue of a kind first seen after pg-boss opened (an admin command's enqueue). */
  async function ensureQueue(kind: JobKind<unknown>): Promise<void> {
    if (!kinds.has(kind.name)) kinds.set(kind.name, kind);
    const instance = await open();
    if (queues.has(kind.name)) return;
    await exclusively(knex, `siteaudit_pgboss:${schema}`, async () => {
      // Another process may have made it meanwhile.
      for (const queue of await instance.getQueues()) queues.add(queue.name);
      await createQueue(instance, kind);
    });
  }

  /** Real-time start of a job due at business time `runAt`. */
  function startAfter(runAt: Date): Date {
    const wait = Math.max(0, runAt.getTime() - clock().getTime());
    return new Date(Date.now() + Math.min(wait, recheckMs));
  }

  async function send(name: string, envelope: Envelope, opts: { db?: Db; singletonKey?: string }): Promise<string | null> {
    const instance = await open();
    return instance.send(name, envelope as unknown as object, { startAfter: startAfter(new Date(envelope.runAt)), singletonKey: opts.singletonKey, db: opts.db });
  }

  /** Resolves after `ms`, or sooner when a job of `name` is queued here or the runner stops. */
  function pause(name: string, ms: number): Promise<void> {
    let set = idleLoops.get(name);
    if (!set) idleLoops.set(name, (set = new Set()));
    const waiting = set;
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      }
      waiting.add(done);
    });
  }

  /**
   * Fetches and runs jobs of `name` one at a time until the runner stops. The loop is ours rather
   * than pg-boss's `work()`, whose worker completes a job without awaiting the query: a failed
   * completion (the database gone for a moment) was an unhandled rejection, and `stop()` could
   * return while it was still in flight. Here every completion is awaited, and one that fails
   * is logged: pg-boss retries that job once it expires.
   */
  async function workLoop(instance: PgBoss, name: string): Promise<void> {
    while (!stopped) {
      const [job] = await instance.fetch<Envelope>(name, { batchSize: 1, includeMetadata: true });
      if (!job) {
        await pause(name, POLL_MS);
        continue;
      }
      const run = runOne(name, job).then(
        () => instance.complete(name, job.id),
        (err: unknown) => instance.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) }),
      );
      running.add(run);
      try {
        await run;
      } catch (err) {
        log.error({ err, job: job.id, kind: name }, 'job outcome not recorded; the job runs again once it expires');
      } finally {
        running.delete(run);
      }
    }
  }

  async function runOne(name: string, job: PgBoss.JobWithMetadata<Envelope>): Promise<void> {
    const handler = handlers.get(name)!;
    const envelope = job.data;
    const resend = (patch: Partial<Envelope>) => send(name, { ...envelope, ...patch }, { singletonKey: job.singletonKey ?? undefined });
    // Fetched while this runner stops: handed back untouched.
    if (stopped) {
      await resend({});
      return;
    }
    // Not yet due by the server clock: back to wait (pg-boss completes this copy).
    if (new Date(envelope.runAt) > clock()) {
      await resend({});
      return;
    }
    const attempt = envelope.attempts + 1 + job.retryCount; // a crash (expiry) counts as an attempt
    const maxAttempts = handler.maxAttempts ?? 3;
    const fail = async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      log.error({ err: error, job: job.id, kind: name, attempts: attempt }, 'job failed');
      options.onFailed?.(name);
      await handler.onFailed?.(envelope.payload, message, error).catch((err) => log.error({ err, job: job.id, kind: name }, 'job failure not recorded'));
    };
    if (attempt > maxAttempts) return fail(new JobInterruptedError(job.id));
    // pg-boss keeps no lease a handler could fence with; a plain transaction stands for it.
    const lease: JobLease = {
      async fence() {
        if (stopped && controller.signal.aborted) throw new LeaseLostError(job.id);
      },
      write: (work) => transaction(knex, work),
    };
    try {
      const result = await handler.run(envelope.payload, { id: job.id, attempt, signal: controller.signal, lease });
      if (result && 'retryAt' in result) await resend({ runAt: result.retryAt.toISOString(), attempts: 0 });
    } catch (error) {
      if (controller.signal.aborted) {
        // Interrupted by shutdown: queued again as it was, for another process at once.
        await resend({});
        return;
      }
      if (attempt >= maxAttempts) return fail(error);
      const backoff = Math.min(60_000, 1000 * 2 ** attempt);
      log.warn({ err: error, job: job.id, kind: name, attempt, retry_in_ms: backoff }, 'job attempt failed, retrying');
      await resend({ runAt: new Date(clock().getTime() + backoff).toISOString(), attempts: envelope.attempts + 1 });
    }
  }

  return {
    register(kind, handler) {
      kinds.set(kind.name, kind);
      handlers.set(kind.name, { ...kind.options, ...(handler as JobHandler<unknown>) });
    },
    async enqueue(kind, payload, opts = {}) {
      const { name } = kind;
      await ensureQueue(kind);
      const envelope: Envelope = { payload, runAt: (opts.runAt ?? clock()).toISOString(), attempts: 0 };
      const id = await send(name, envelope, { singletonKey: singletonKeyOf(kind, opts.singletonKey), db: opts.trx ? executor(opts.trx) : undefined });
      // A worker of this process takes it at once rather than at its next poll.
      if (!opts.trx) wake(name);
      else void opts.trx.executionPromise?.then(() => wake(name), () => undefined);
      return id;
    },
    async cancel(kind, id) {
      const { name } = kind;
      await ensureQueue(kind);
      const instance = await open();
      const job = await instance.getJobById(name, id);
      if (!job || (job.state !== 'created' && job.state !== 'retry')) return false;
      await instance.cancel(name, id);
      return true;
    },
    async pending({ name }) {
      await open();
      const { rows } = (await knex.raw(
        `select id, data from ${schema}.job where name = ? and state in ('created', 'retry') order by (data->>'runAt')::timestamptz`,
        [name],
      )) as { rows: { id: string; data: Envelope }[] };
      return rows.map((row) => ({ id: row.id, payload: row.data.payload as never, runAt: new Date(row.data.runAt) }));
    },
    async counts() {
      await open();
      // A job fetched only to be re-checked (not yet due by the server clock) is still queued, and
      // counted once with the copy it queues again (same singleton key).
      const { rows } = (await knex.raw(
        `select kind, state, count(distinct coalesce(singleton_key, id::text))::int as count from (
           select name as kind, singleton_key, id,
             case when state in ('created', 'retry') or (state = 'active' and (data->>'runAt')::timestamptz > ?) then 'queued'
                  when state = 'active' then 'running' else 'failed' end as state
           from ${schema}.job where state in ('created', 'retry', 'active', 'failed')) jobs
         group by 1, 2`,
        [clock().toISOString()],
      )) as { rows: JobCount[] };
      return rows.map((r) => ({ kind: r.kind, state: r.state as JobState, count: Number(r.count) }));
    },
    async idle() {
      await open();
      const names = [...handlers.keys()];
      for (;;) {
        const { rows } = (await knex.raw(
          `select count(*)::int as n from ${schema}.job where name = any(?) and (state = 'active' or (state in ('created', 'retry') and (data->>'runAt')::timestamptz <= ?))`,
          [names, clock().toISOString()],
        )) as { rows: { n: number }[] };
        if (rows[0].n === 0 && running.size === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async start() {
      const instance = await open();
      started = true;
      stopped = false;
      for (const [name, handler] of handlers) {
        // One loop per slot, each holding one job at a time, so a slow job never holds a batch.
        for (let i = 0; i < (handler.concurrency ?? 2); i++) loops.push(workLoop(instance, name));
      }
    },
    async stop() {
      stopped = true;
      controller.abort();
      for (const name of idleLoops.keys()) wake(name);
      await Promise.allSettled([...running, ...loops]);
      const instance = boss ?? (opening ? await opening.catch(() => null) : null);
      await instance?.stop({ graceful: true, wait: true, close: false, timeout: 5_000 });
    },
    ready: () => started && !stopped,
  };
}
