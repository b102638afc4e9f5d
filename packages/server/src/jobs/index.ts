/**
 * The job engine of a server. SQLite: the in-process table runner (embedded, single process).
 * PostgreSQL: pg-boss; SITEAUDIT_JOB_ENGINE=table keeps the table runner there (a fallback).
 */
import type { JobRunner } from './job-runner.js';
import { createPgBossRunner } from './pg-boss-runner.js';
import { createTableJobRunner, type JobRunnerOptions } from './runner.js';

export type JobEngine = 'table' | 'pg-boss';

export interface JobEngineOptions extends JobRunnerOptions {
  engine?: JobEngine;
  /** The server clock is not real time (tests). */
  injectedClock?: boolean;
  /** False for a runner that only enqueues (admin commands): pg-boss runs no maintenance. Default true. */
  supervise?: boolean;
}

export function createJobRunner(options: JobEngineOptions): JobRunner {
  const engine = options.engine ?? (process.env.SITEAUDIT_JOB_ENGINE as JobEngine | undefined) ?? 'pg-boss';
  if (options.dialect === 'postgres' && engine === 'pg-boss') return createPgBossRunner(options);
  return createTableJobRunner(options);
}
