/** The export sweep: files of exports past their retention are removed, every 15 minutes. */
import type { Services } from '../../services.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import type { ExportExpiry } from './expiry.js';
import type { ExportRow } from './export-row.js';
import { EXPORT_SWEEP } from './jobs.js';

const SWEEP_EVERY_MS = 15 * 60_000;

export function exportSweepJob(services: Services, { expire }: ExportExpiry): ModuleJob {
  const { knex } = services;
  return defineJobHandler(EXPORT_SWEEP, {
    async run() {
      const due = (await knex('exports').where({ status: 'ready' }).andWhere('expires_at', '<=', services.clock().toISOString())) as ExportRow[];
      for (const row of due) await expire(row);
      return { retryAt: new Date(services.clock().getTime() + SWEEP_EVERY_MS) };
    },
  });
}

/** Queues the sweep unless it is queued already (one chain across processes). */
export async function ensureExportSweep(services: Services): Promise<void> {
  await services.jobs.enqueue(EXPORT_SWEEP, {});
}
