/**
 * A job that runs once a day per project (rank tracking, Search Console). The owning table's row
 * holds the day whose run is scheduled; claiming a run clears it and schedules tomorrow's in the
 * same transaction, so exactly one chain lives per project, whatever the processes and retries.
 */
import type { Knex } from 'knex';
import { addDays, dayStartOf, isoDay } from '@siteaudit/schema/rules';
import type { Services } from '../services.js';
import { transaction } from '../store/retry.js';
import type { JobKind } from './job-runner.js';

/** Where a daily job keeps its next day: the owner's table and column (keyed by `project_id`), and the job kind. */
export interface DailyRun {
  table: string;
  column: string;
  job: JobKind<{ projectId: string; day: string }>;
}

/** Sets the project's next run to `day` and enqueues it (at `runAt`, default midnight UTC of `day`), in the caller's transaction. */
export async function scheduleDailyRun(
  services: Pick<Services, 'jobs'>,
  trx: Knex.Transaction,
  run: DailyRun,
  projectId: string,
  day: string,
  runAt?: Date,
): Promise<void> {
  await trx(run.table).where({ project_id: projectId }).update({ [run.column]: day });
  await services.jobs.enqueue(run.job, { projectId, day }, { runAt: runAt ?? dayStartOf(day), trx });
}

/**
 * Takes the run of `day` and schedules the next one for tomorrow. False when the run is not this
 * one's to do: already taken by another process, or replaced by a rescheduling (the row names
 * another day), or the project is gone.
 */
export async function claimDailyRun(services: Pick<Services, 'jobs' | 'knex' | 'clock'>, run: DailyRun, projectId: string, day: string): Promise<boolean> {
  const tomorrow = addDays(isoDay(services.clock()), 1);
  return transaction(services.knex, async (trx) => {
    const taken = await trx(run.table).where({ project_id: projectId, [run.column]: day }).update({ [run.column]: null });
    if (taken === 0) return false;
    await scheduleDailyRun(services, trx, run, projectId, tomorrow);
    return true;
  });
}
