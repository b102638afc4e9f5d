/**
 * The test's view of a server's jobs through the JobRunner interface (never a job table): an
 * engine on the same database that only reads and queues, never runs.
 */
import type { Knex } from 'knex';
import { createJobRunner } from '../../../src/jobs/index.js';
import type { JobKind, JobRunner } from '../../../src/jobs/job-runner.js';
import { onPostgres } from '../../../../../tests/support/harness.js';

export async function withJobs<T>(knex: Knex, clock: () => Date, use: (jobs: JobRunner) => Promise<T>): Promise<T> {
  const jobs = createJobRunner({ knex, dialect: onPostgres ? 'postgres' : 'sqlite', clock, injectedClock: true });
  try {
    return await use(jobs);
  } finally {
    await jobs.stop();
  }
}

/** Moves the queued jobs of a kind (matching `which`) to run at `runAt` by the server clock. */
export async function reschedule<P>(knex: Knex, kind: JobKind<P>, runAt: Date, which: (payload: P) => boolean = () => true): Promise<void> {
  await withJobs(knex, () => runAt, async (jobs) => {
    for (const job of await jobs.pending(kind)) {
      if (!which(job.payload) || !(await jobs.cancel(kind, job.id))) continue;
      // A singleton kind is queued under its own key again (JobOptions.singleton).
      await jobs.enqueue(kind, job.payload, { runAt });
    }
  });
}
