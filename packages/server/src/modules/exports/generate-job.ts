/**
 * The export job: renders a settled crawl's report (PDF or XLSX) into the blob store, marks the
 * export `ready` until its expiry and publishes `export.ready` (docs/decisions/exports.md).
 */
import type { Services } from '../../services.js';
import { EXPORT_CONTENT_TYPES, renderExport } from '../../reports/index.js';
import { transaction } from '../../store/retry.js';
import { teamPlanKey } from '../../store/teams.js';
import { crawlById, type CrawlRow } from '../crawls/reads.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import type { BlobStore } from './blob-store.js';
import { toExport, type ExportRow } from './export-row.js';
import { EXPORT_GENERATE } from './jobs.js';
import { exportSource } from './source.js';

/** The `error` of a failed export: a code, then a human message (docs/decisions/exports.md). */
const EXPORT_FAILED = 'export.generation_failed: The file could not be generated. Request the export again; if it fails again, the operator has the details.';

/** `searchConsoleSynchronises`: the server has a Search Console provider, as the scorecard read is told. */
export function generateJob(services: Services, store: BlobStore, retentionMs: number, searchConsoleSynchronises: boolean): ModuleJob {
  const { knex } = services;
  const log = services.logger.child({ module: 'exports' });
  return defineJobHandler(EXPORT_GENERATE, {
    async run({ exportId }) {
      const row = (await knex('exports').where({ id: exportId }).first()) as ExportRow | undefined;
      // `generating` too: a retried attempt, or one resumed after a crash, finds it so.
      if (!row || (row.status !== 'queued' && row.status !== 'generating')) return;
      await knex('exports').where({ id: row.id }).update({ status: 'generating' });
      const started = performance.now();
      const crawl = (await crawlById(knex, row.crawl_id)) as CrawlRow | undefined;
      // Its crawl deleted meanwhile (with its project or campaign): the row went with it.
      if (!crawl) return;
      // The file is `<directory>/<id>.<format>`. Rows written before this kept `exports/<id>.<format>`
      // (a folder `exports/exports/` by default): their key is read as stored, so they stay downloadable.
      const key = `${row.id}.${row.format}`;
      // The scorecard's acquisition pillar depends on the team's plan, as the API's does.
      const planKey = await teamPlanKey(knex, row.team_id);
      const plan = planKey ? services.plans()[planKey] : undefined;
      const source = await exportSource(knex, crawl, row.language, {
        searchConsoleInPlan: plan ? plan.limits.search_console !== 0 : true,
        searchConsoleSynchronises,
        now: services.clock(),
        branding: row.branding ?? null,
      });
      const { size } = await store.put(key, renderExport(row.format, source), EXPORT_CONTENT_TYPES[row.format]);
      const finished = services.clock();
      const kept = await transaction(knex, async (trx) => {
        const updated = await trx('exports')
          .where({ id: row.id })
          .update({ status: 'ready', size_bytes: size, blob_key: key, finished_at: finished.toISOString(), expires_at: new Date(finished.getTime() + retentionMs).toISOString() });
        if (updated === 0) return false;
        const ready = (await trx('exports').where({ id: row.id }).first()) as ExportRow;
        await services.events.publish({ type: 'export.ready', teamId: row.team_id, data: { export: toExport(ready, services.links) } }, trx);
        return true;
      });
      // Deleted while it was generated (its project or campaign went, export files included,
      // eraser.ts): what was written goes too.
      if (!kept) return store.delete(key);
      log.info({ export: row.id, crawl: row.crawl_id, team: row.team_id, format: row.format, bytes: size, duration_ms: Math.round(performance.now() - started) }, 'export ready');
    },
    async onFailed({ exportId }, _message, cause) {
      // The cause (a renderer or store message) goes to the log, never to the caller.
      log.error({ err: cause, export: exportId }, 'export failed');
      await knex('exports').where({ id: exportId }).update({ status: 'failed', error: EXPORT_FAILED, finished_at: services.clock().toISOString() });
    },
  });
}
