/**
 * The export sweep, every 15 minutes: files of exports past their retention are removed, and the
 * erasures a process killed mid-deletion left are finished (eraser.ts).
 */
import type { Services } from '../../services.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import type { ExportEraser } from './eraser.js';
import type { ExportExpiry } from './expiry.js';
import type { ExportRow } from './export-row.js';
import { EXPORT_SWEEP } from './jobs.js';

const SWEEP_EVERY_MS = 15 * 60_000;

export function exportSweepJob(services: Services, { expire }: ExportExpiry, eraser: ExportEraser): ModuleJob {
  const { knex } = services;
  return defineJobHandler(EXPORT_SWEEP, {
    async run() {
      const due = (await knex('exports').where({ status: 'ready' }).andWhere('expires_at', '<=', services.clock().toISOString())) as ExportRow[];
      for (const row of due) await expire(row);
      await eraser.resume();
      return { retryAt: new Date(services.clock().getTime() + SWEEP_EVERY_MS) };
    },
  });
}

/** Queues the sweep unless it is queued already (one chain across processes). */
export async function ensureExportSweep(services: Services): Promise<void> {
  await services.jobs.enqueue(EXPORT_SWEEP, {});
}
