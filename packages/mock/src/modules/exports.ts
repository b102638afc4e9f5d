/**
 * Exports: requested as `queued` (202 + Location), `generating`, then `ready` with a
 * download_url until `expires_at`, then `expired` (download 410). An identical export still in
 * progress is answered instead of a new one (docs/decisions/exports.md).
 */
import { type Export } from '@siteaudit/schema';
import { DEFAULT_EXPORT_RETENTION_DAYS, EXPORT_CONTENT_TYPES, exportFilename, isExportableCrawl, refusalDetails } from '@siteaudit/schema/rules';
import { assertIncluded } from '@siteaudit/schema/pipeline';
import { data, fail, type BusinessMap, type MockEnv } from '../context.js';
import type { ExportRecord, Job, MockDb } from '../db.js';
import { DAY, iso, nextSeq, ownedCrawl, ownedExport, SECOND } from '../store.js';
import { placeholderPdf, placeholderXlsx } from './files.js';
import { emitEvent } from './webhooks.js';

export const EXPORT_TIMING = { queued: 1 * SECOND, generating: 2 * SECOND };
/** How long a ready export stays downloadable: the server's default. */
export const EXPORT_RETENTION_MS = DEFAULT_EXPORT_RETENTION_DAYS * DAY;

/** A ready export past its expiry reads as expired even before its expiry job ran (as the server). */
function current(record: ExportRecord, now: Date): ExportRecord {
  if (record.status === 'ready' && record.expires_at && Date.parse(record.expires_at) <= now.getTime()) record.status = 'expired';
  return record;
}

/**
 * Deleting a log import removes the project's exports that may show its paths, as the server does
 * (docs/decisions/logs.md, Retention): those finished since the import completed (`since`) and
 * those being generated; a queued one is made without it. Returns how many went.
 */
export function removeExportsShowingLogs(db: MockDb, projectId: string, since: string): number {
  let removed = 0;
  for (const record of [...db.exports.values()]) {
    if (db.crawls.get(record.crawl_id)?.project_id !== projectId) continue;
    if (record.status === 'generating' || (record.finished_at !== null && record.finished_at >= since)) {
      db.exports.delete(record.id);
      removed++;
    }
  }
  return removed;
}

function serializeExport(env: MockEnv, record: ExportRecord): Export {
  return {
    id: record.id,
    crawl_id: record.crawl_id,
    format: record.format,
    status: record.status,
    size_bytes: record.size_bytes,
    download_url: record.status === 'ready' ? `${env.baseUrl}/v1/exports/${record.id}/download` : null,
    error: record.error,
    created_at: record.created_at,
    finished_at: record.finished_at,
    expires_at: record.expires_at,
  };
}

function fileOf(record: ExportRecord): Uint8Array {
  const title = `Site Audit report of crawl ${record.crawl_id} (placeholder from @siteaudit/mock)`;
  return record.format === 'pdf' ? placeholderPdf(title) : placeholderXlsx(title);
}

/** Moves an export forward; `job.at` is the instant the phase ends. */
export function runExportJob(env: MockEnv, job: Job): void {
  const record = env.db.exports.get(job.id);
  if (!record) return;
  if (job.kind === 'export.generate' && record.status === 'queued') {
    record.status = 'generating';
    env.schedule('export.ready', record.id, job.at + EXPORT_TIMING.generating);
  } else if (job.kind === 'export.ready' && record.status === 'generating') {
    Object.assign(record, {
      status: 'ready',
      size_bytes: fileOf(record).byteLength,
      finished_at: iso(job.at),
      expires_at: iso(job.at + EXPORT_RETENTION_MS),
    });
    // Expiry is not progress: a bare advance() leaves a ready export downloadable.
    env.schedule('export.expire', record.id, job.at + EXPORT_RETENTION_MS, false);
    emitEvent(env, record.team_id, 'export.ready', job.at);
  } else if (job.kind === 'export.expire' && record.status === 'ready') {
    record.status = 'expired';
  }
}

export const exportOperations: Pick<BusinessMap, 'createExport' | 'getExport' | 'downloadExport'> = {
  createExport({ env, db, caller, params, body, now, language }) {
    const crawl = ownedCrawl(db, params.crawl, caller);
    if (!isExportableCrawl(crawl)) {
      fail('crawl.not_finished', { detail: refusalDetails.crawlNotFinished(crawl.status) });
    }
    if (body.format === 'xlsx') assertIncluded(env.plans, caller.plan, 'exports.excel', 'plan_limit.exports.excel');
    const location = (id: string) => ({ Location: `${env.baseUrl}/v1/exports/${id}` });
    // Cover branding (docs/decisions/export-branding.md), validated by the contract as on the server.
    const branding = body.branding ? JSON.stringify({ agency_name: body.branding.agency_name, logo: body.branding.logo }) : null;
    // An identical export (same crawl, format, language and branding) still in progress is returned instead.
    const same = [...db.exports.values()].find(
      (e) => e.crawl_id === crawl.id && e.format === body.format && e.language === language && e.branding === branding && (e.status === 'queued' || e.status === 'generating'),
    );
    if (same) return data(serializeExport(env, same), { status: 202, headers: location(same.id) });
    const record: ExportRecord = {
      seq: nextSeq(db),
      id: env.random.uuid(),
      team_id: caller.team.id,
      crawl_id: crawl.id,
      format: body.format,
      language,
      branding,
      status: 'queued',
      size_bytes: null,
      error: null,
      created_at: iso(now),
      finished_at: null,
      expires_at: null,
    };
    db.exports.set(record.id, record);
    env.schedule('export.generate', record.id, now.getTime() + EXPORT_TIMING.queued);
    return data(serializeExport(env, record), { status: 202, headers: location(record.id) });
  },

  getExport({ env, db, caller, params, now }) {
    return data(serializeExport(env, current(ownedExport(db, params.export, caller), now)));
  },

  downloadExport({ db, caller, params, now }) {
    const record = current(ownedExport(db, params.export, caller), now);
    if (record.status === 'expired') fail('export.expired');
    if (record.status !== 'ready') fail('export.not_ready');
    const crawl = db.crawls.get(record.crawl_id);
    const slug = (crawl && db.projects.get(crawl.project_id)?.slug) ?? 'crawl';
    return {
      type: 'file',
      bytes: fileOf(record),
      contentType: EXPORT_CONTENT_TYPES[record.format],
      filename: exportFilename(slug, crawl?.finished_at ?? record.created_at, record.format, record.language),
      etag: `"${record.id}"`,
    };
  },
};
