/** The three export operations: request one, read it, download its file (docs/decisions/exports.md). */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { exportFilename, isExportableCrawl, refusalDetails } from '@siteaudit/schema/rules';
import { assertIncluded } from '@siteaudit/schema/pipeline';
import { EXPORT_CONTENT_TYPES } from '../../reports/index.js';
import type { Handlers } from '../../http/binder.js';
import type { Caller } from '../../http/context.js';
import { ApiError, notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { bool } from '../../store/database.js';
import { transaction } from '../../store/retry.js';
import { crawlById, findCrawl, toCrawl } from '../crawls/crawl-row.js';
import { projectIdentity } from '../projects/reads.js';
import { lockTeam } from '../team-lock.js';
import { BlobNotFoundError, type BlobStore } from './blob-store.js';
import type { ExportExpiry } from './expiry.js';
import { toExport, type ExportRow } from './export-row.js';
import { EXPORT_GENERATE } from './jobs.js';

async function findExport(knex: Knex, caller: Caller, id: string): Promise<ExportRow> {
  const row = await knex('exports').where({ id, team_id: caller.teamId }).first();
  if (!row) throw notFound();
  return row as ExportRow;
}

export function exportHandlers(services: Services, store: BlobStore, { current }: ExportExpiry): Pick<Handlers, 'createExport' | 'getExport' | 'downloadExport'> {
  const { knex, reads } = services;
  return {
    async createExport(ctx, { params, body }) {
      const crawl = await findCrawl(knex, ctx.caller, params.crawl);
      if (!isExportableCrawl({ status: crawl.status, settled: bool(crawl.settled), blocked: bool(crawl.blocked) })) {
        throw new ApiError('crawl.not_finished', { detail: refusalDetails.crawlNotFinished(toCrawl(crawl).status) });
      }
      const plan = ctx.caller.plan;
      if (body.format === 'xlsx') assertIncluded(services.plans(), plan, 'exports.excel', 'plan_limit.exports.excel');
      const identity = { team_id: ctx.caller.teamId, crawl_id: crawl.id, format: body.format, language: ctx.language };
      // Cover branding (docs/decisions/export-branding.md), validated by the contract; part of what makes two requests the same.
      const branding = body.branding ? JSON.stringify({ agency_name: body.branding.agency_name, logo: body.branding.logo }) : null;
      const row = await transaction(knex, async (trx) => {
        // Looked up and inserted under the team lock: two identical requests at the same time on
        // PostgreSQL would otherwise both find none in progress and queue two exports.
        await lockTeam(trx, services.dialect, ctx.caller.teamId);
        // An identical export still in progress is returned instead of a second one (createExport, docs/openapi.json).
        const existing = await trx('exports')
          .where(identity)
          .andWhere((q) => (branding === null ? q.whereNull('branding') : q.where('branding', branding)))
          .whereIn('status', ['queued', 'generating'])
          .first();
        if (existing) return existing as ExportRow;
        const created: ExportRow = {
          id: randomUUID(),
          ...identity,
          status: 'queued',
          size_bytes: null,
          blob_key: null,
          error: null,
          created_at: ctx.now.toISOString(),
          finished_at: null,
          expires_at: null,
          branding,
        };
        await trx('exports').insert(created);
        await services.jobs.enqueue(EXPORT_GENERATE, { exportId: created.id }, { trx });
        return created;
      });
      return { body: { data: toExport(row, services.links) }, headers: { Location: services.links.absolute(`/v1/exports/${row.id}`) } };
    },

    async getExport(ctx, { params }) {
      // Read on the read connections; an export found past its expiry is marked so on the writing one (expiry.ts).
      return { body: { data: toExport(await current(await findExport(reads, ctx.caller, params.export)), services.links) } };
    },

    async downloadExport(ctx, { params }) {
      const row = await current(await findExport(reads, ctx.caller, params.export));
      if (row.status === 'expired') throw new ApiError('export.expired');
      if (row.status === 'failed') throw new ApiError('export.not_ready', { detail: refusalDetails.exportFailed(row.error ?? 'unknown error') });
      if (row.status !== 'ready' || !row.blob_key) throw new ApiError('export.not_ready');
      let stream;
      try {
        stream = await store.get(row.blob_key);
      } catch (error) {
        if (error instanceof BlobNotFoundError) throw new ApiError('export.expired');
        throw error;
      }
      const crawl = await crawlById(reads, row.crawl_id);
      const project = crawl && (await projectIdentity(reads, crawl.project_id));
      return {
        file: {
          stream,
          contentType: EXPORT_CONTENT_TYPES[row.format],
          filename: exportFilename(project?.slug, crawl?.finished_at ?? row.created_at, row.format, row.language),
          size: row.size_bytes === null ? undefined : Number(row.size_bytes),
          etag: `"${row.id}"`,
        },
      };
    },
  };
}
