/**
 * The one interface the modules use for background work. Two engines implement it: the
 * in-process runner on the `jobs` table (jobs/runner.ts, the embedded SQLite default) and pg-boss
 * on PostgreSQL (jobs/pg-boss-runner.ts). No module or metric reads an engine's tables: what
 * they need (singleton keys, run-at, cancel, counts) is asked here.
 */
import type { Knex } from 'knex';

/**
 * How a kind of job runs, declared with the kind by the module that owns it: the engines read
 * these and know no kind by name (docs/architecture.md, "Modules").
 */
export interface JobOptions {
  /**
   * A chain that re-queues itself: one queued and one running job at most, keyed by the kind's
   * name unless `enqueue` names a key (pg-boss: a `stately` queue).
   */
  singleton?: boolean;
  /** Attempts before a throwing job is marked failed. Default 3. A crash counts as an attempt. */
  maxAttempts?: number;
  /** Lease length; a job whose lease is not renewed for this long is taken over. Default 60 s. */
  leaseMs?: number;
  /**
   * pg-boss, which keeps no heartbeat, retries a job whose process died once it has run this
   * long: the longest run of the kind. Default `leaseMs`.
   */
  expireMs?: number;
  /** Jobs of this kind run at once in this process. Default 2. */
  concurrency?: number;
}

/**
 * A kind of job, its options and the type of its payload: made once with `defineJob` in the
 * module that owns it, used by both the code that enqueues and the code that runs, so the name
 * is never written twice.
 */
export interface JobKind<P> {
  readonly name: string;
  readonly options: Readonly<JobOptions>;
  /** Type only: carries the payload type from `enqueue` to `register`. */
  readonly payload?: P;
}

export function defineJob<P extends object = Record<string, never>>(name: string, options: JobOptions = {}): JobKind<P> {
  return Object.freeze({ name, options: Object.freeze({ ...options }) });
}

/** The key a job is queued under: the caller's, else the kind's name for a singleton kind. */
export function singletonKeyOf(kind: JobKind<unknown>, requested: string | undefined): string | undefined {
  return requested ?? (kind.options.singleton ? kind.name : undefined);
}

/** Thrown by a fenced write of a run that no longer holds its work. */
export class LeaseLostError extends Error {
  constructor(id: string) {
    super(`lease of ${id} lost`);
  }
}

/** Thrown to `onFailed` for a job taken over after crashes with no attempts left. */
export class JobInterruptedError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} was interrupted too many times`);
  }
}

export interface JobLease {
  /** Throws LeaseLostError (and aborts the run) unless this run still holds its work; renews the lease. */
  fence(trx: Knex.Transaction): Promise<void>;
  /** `work` in a transaction that first checks the lease. */
  write<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

export interface JobContext {
  id: string;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted at shutdown and when the lease is lost. */
  signal: AbortSignal;
  /**
   * The job's own lease on the table runner. pg-boss keeps none a handler could fence with: work
   * that must never be written by two runs (a crawl) holds a lease of its own (modules/crawls/lease.ts).
   */
  lease: JobLease;
}

/** What a handler may ask for instead of finishing: to run again later (polling, retries). */
export type JobResult = void | { retryAt: Date };

export interface JobHandler<P> {
  run(payload: P, ctx: JobContext): Promise<JobResult>;
  /** Called once a job has failed for good (`cause` is what was thrown, or a JobInterruptedError). */
  onFailed?(payload: P, error: string, cause: unknown): Promise<void>;
}

export interface EnqueueOptions {
  runAt?: Date;
  /** Queued in the caller's transaction: if it rolls back, so does the job. */
  trx?: Knex.Transaction;
  /**
   * At most one queued-or-running job per key: when one exists, nothing is queued and null is
   * returned. Default: the kind's name for a `singleton` kind, else none.
   */
  singletonKey?: string;
}

export type JobState = 'queued' | 'running' | 'failed';

export interface JobCount {
  kind: string;
  state: JobState;
  count: number;
}

export interface PendingJob<P> {
  id: string;
  payload: P;
  /** Due at, by the server clock. */
  runAt: Date;
}

export interface JobRunner {
  register<P>(kind: JobKind<P>, handler: JobHandler<P>): void;
  /** The job's id, or null when its singleton key already has a job. */
  enqueue<P>(kind: JobKind<P>, payload: P, options?: EnqueueOptions): Promise<string | null>;
  /** Removes a job not yet running; false when there was none to cancel. */
  cancel(kind: JobKind<unknown>, id: string): Promise<boolean>;
  /** The jobs of a kind waiting to run, soonest first (operators, tests). */
  pending<P>(kind: JobKind<P>): Promise<PendingJob<P>[]>;
  /** Jobs by kind and state, all processes (the metrics gauge). */
  counts(): Promise<JobCount[]>;
  /** Resolves when no job is running and none is due. */
  idle(): Promise<void>;
  /** Starts running the registered kinds in this process. */
  start(): Promise<void>;
  /** Stops claiming, aborts the running jobs and hands them back to the queue at once. */
  stop(): Promise<void>;
  /** Started and not stopped (`/readyz`). */
  ready(): boolean;
}
