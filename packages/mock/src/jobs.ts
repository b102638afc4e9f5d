/**
 * The mock's clockwork: jobs queued by business functions run, in time order, when `advance()`
 * moves the clock past them. Each job runs at its own instant (`job.at`), so timestamps such as
 * `finished_at` are exact whatever step a test advances by.
 */
import type { MockEnv } from './context.js';
import type { Job } from './db.js';
import { runCrawlJob } from './modules/crawls.js';
import { runExportJob } from './modules/exports.js';
import { runLogJob } from './modules/logs.js';
import { runKeywordCheckJob } from './modules/positions.js';
import { runDeliveryJob } from './modules/webhooks.js';

function run(env: MockEnv, job: Job): void {
  if (job.kind.startsWith('crawl.')) runCrawlJob(env, job);
  else if (job.kind.startsWith('export.')) runExportJob(env, job);
  else if (job.kind === 'logs.parsed') runLogJob(env, job);
  else if (job.kind === 'keyword.check') runKeywordCheckJob(env, job);
  else if (job.kind === 'delivery.attempt') runDeliveryJob(env, job);
}

/** Runs every job due at or before `until` (epoch ms), including jobs those jobs queue. */
export function runDueJobs(env: MockEnv, until: number): void {
  const jobs = env.db.jobs;
  for (;;) {
    let index = -1;
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i];
      if (job.at > until) continue;
      if (index === -1 || job.at < jobs[index].at || (job.at === jobs[index].at && job.order < jobs[index].order)) index = i;
    }
    if (index === -1) return;
    const [job] = jobs.splice(index, 1);
    run(env, job);
  }
}

/** The instant of the earliest pending progress job, or null when there is none. */
export function nextProgressAt(env: MockEnv): number | null {
  let next: number | null = null;
  for (const job of env.db.jobs) if (job.progress && (next === null || job.at < next)) next = job.at;
  return next;
}
