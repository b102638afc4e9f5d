/**
 * Log exploration (extension, docs/decisions/logs.md): access-log uploads parsed by a durable job
 * in a thread of their own, bot claims verified, aggregates stored without addresses, and reads
 * joined with the latest settled crawl.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { mkdtempSync } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogDayStat, LogFinding, LogUrlStat } from '@siteaudit/schema';
import { createLogJoin, INFLATION_FAILED, INFLATION_LIMIT, limitUpgrade, refusalDetails, RANGE_OPERATORS, VERIFIED_OPERATORS, withinLimit } from '@siteaudit/schema/rules';
import { assertIncluded, type Upload } from '@siteaudit/schema/pipeline';
import type { Handlers, ReceivedUpload } from '../../http/binder.js';
import type { Caller } from '../../http/context.js';
import { ApiError, deletedOrNotFound, notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';
import { defineJobHandler, defineModule } from '../module.js';
import { LOG_IMPORT } from './jobs.js';
import { byCreation, newestFirst } from '../paging.js';
import { assertUnlocked, findProject } from '../projects/project-row.js';
import { latestCrawlPages } from './join-source.js';
import { startParse, type ParseRun } from './parse-runner.js';
import { reverseDnsLookup, systemResolver, type DnsResolver } from './reverse-dns.js';
import { eachUrlStat } from './report-reads.js';
import { beginImportWrites, clearImportRows, completeImport, importTotals, refreshPlannerStatistics, toLogImport, urlStatPage, writeRows, type LogImportRow, type LogSummary } from './store.js';
import { receiveFile } from './upload.js';
import { openLogDirectory } from './directory.js';

export { defaultLogDirectory } from './directory.js';
import { importFileName, RunningParses, stagingFileName, sweepUploads, SWEEP_EVERY_MS } from './retention.js';

export interface LogsOptions {
  /**
   * Where uploads wait for parsing: default SITEAUDIT_LOG_DIR, else `./.siteaudit/logs/<store id>`
   * (a temporary folder of the process's own for an in-memory database). Created 0700.
   */
  directory?: string;
  /** Reverse-DNS adapter for claims outside the published ranges; null turns the step off. Default: the system resolver. */
  resolver?: DnsResolver | null;
  /** Parse in a worker thread (default true); false parses on this thread (tests). */
  threads?: boolean;
  /** @internal URL statistics a parse holds before it spills them to the store (default SPILL_AT; tests set it small). */
  spillAt?: number;
}

/**
 * What a deletion asks of the logs module: before a project's rows go, its parses are stopped and
 * its uploads removed; after, the store keeps no readable copy of the deleted rows (SQLite).
 */
export interface LogEraser {
  beforeProjectDelete(projectId: string): Promise<void>;
  afterDelete(): Promise<void>;
}

/**
 * What an import's deletion asks of the exports module (handed by server.ts): it runs the
 * deletion, and the project's exports that may show its paths (made since `since`, when the import
 * completed) go too, rows and files, even across a crash.
 */
export interface LogExportEraser {
  logImportDeleteWith(projectId: string, since: string | null, remove: (trx: Knex.Transaction) => Promise<unknown>): Promise<number>;
}

export interface LogsNeeds {
  exports: LogExportEraser;
}

const IMPORT_FAILED = 'log_import.parse_failed: The file could not be read (corrupt gzip data, or unreadable bytes). Send it again.';
/** The upload is not in the folder (removed while no process ran, or the job ran where the folder is another): said as it is, never as corrupt data. */
const FILE_MISSING = "log_import.file_missing: The uploaded file is no longer in the server's upload folder (removed before its parse, or the process that parsed it uses another folder than the one that received it), so nothing was read. Send it again.";

/**
 * Writes a parse's batches as they come, each its own statement (the single SQLite connection is
 * never held for long), and returns the parse's summary. The thread builds the next batch while
 * one is written and parses on only as far as one part ahead of the store. On PostgreSQL two
 * batches are written at once, on two connections: one statement at a time left the database
 * and the API thread waiting on each other, the machine half idle. Two batches of one part
 * never share a key; the rows of a part are in key order, so two statements meeting on a URL
 * (the end of one part, the start of the next) lock in the same order. The reads see the rows
 * once the import is completed.
 */
async function writeParsedRows(knex: Knex, run: ParseRun, inFlight: number): Promise<LogSummary> {
  const writes = new Set<Promise<void>>();
  try {
    let next = run.next();
    let step = await next;
    while ('batch' in step) {
      next = run.next();
      next.catch(() => undefined); // awaited next turn; a failed write must not leave it unhandled
      const write: Promise<void> = writeRows(knex, step.batch).finally(() => writes.delete(write));
      writes.add(write);
      write.catch(() => undefined); // its failure is read by the race or the Promise.all below, not left unhandled meanwhile
      if (writes.size >= inFlight) await Promise.race(writes);
      step = await next;
    }
    await Promise.all(writes);
    return step.done;
  } catch (error) {
    // Nothing may still write once the import's rows are cleared or its failure handled.
    await Promise.allSettled(writes);
    throw error;
  }
}

type LogHandlers = Pick<Handlers, 'createLogImport' | 'listLogImports' | 'getLogImport' | 'deleteLogImport' | 'getLogInsights' | 'listLogUrls' | 'listLogDays' | 'listLogFindings'>;

/** A page of an in-memory list sorted by `key`, after the cursor's key (`limit + 1` items, as lists want). */
function pageAfter<T>(items: T[], key: (item: T) => unknown[], after: unknown[] | null, limit: number): T[] {
  const cmp = (a: unknown[], b: unknown[]) => {
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as string | number;
      const y = b[i] as string | number;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
  const start = after ? items.findIndex((item) => cmp(key(item), after) > 0) : 0;
  return start === -1 ? [] : items.slice(start, start + limit + 1);
}

const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `defaultDirectory`: the store's own folder (server.ts, directory.ts); without it, a temporary one (an in-memory database). */
export function logsModule(services: Services, needs: LogsNeeds, options: LogsOptions & { defaultDirectory?: string } = {}) {
  const { knex, reads } = services;
  const log = services.logger.child({ module: 'logs' });
  const configured = options.directory ?? (process.env.SITEAUDIT_LOG_DIR || undefined);
  // A temporary folder goes with the process: its database (in memory) goes too.
  const temporary = configured === undefined && options.defaultDirectory === undefined;
  const directory = configured ?? options.defaultDirectory ?? mkdtempSync(join(tmpdir(), 'siteaudit-logs-'));
  openLogDirectory(directory, configured === undefined, (message) => log.warn(message));
  const parses = new RunningParses();
  let sweeper: NodeJS.Timeout | null = null;
  const sweep = () =>
    sweepUploads(knex, directory, services.clock().getTime())
      .then((removed) => removed > 0 && log.info({ removed }, 'orphan log uploads removed'))
      .catch((err: unknown) => log.warn({ err }, 'log upload sweep failed'));

  /** Stops the parses of these imports running here, then removes their uploads. */
  async function eraseUploads(importIds: string[]): Promise<void> {
    await parses.stop(importIds);
    await Promise.all(importIds.map((id) => rm(join(directory, importFileName(id)), { force: true })));
  }

  /**
   * SQLite keeps deleted rows readable in the WAL's frames until a checkpoint writes them back
   * and the file is truncated (secure_delete zeroes them in the database file itself, database.ts).
   * A read connection in the middle of a read holds the WAL (`busy` in the answer): asked again
   * until none does, a few seconds at most, since reads are short.
   */
  async function purgeDeleted(): Promise<void> {
    if (services.dialect !== 'sqlite') return;
    for (let attempt = 0; attempt < 100; attempt++) {
      const [result] = (await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)')) as { busy: number }[];
      if (!result?.busy) return;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    log.warn('the WAL could not be truncated after a deletion: read connections kept it busy; the next checkpoint will');
  }
  const resolver = options.resolver === undefined ? systemResolver : options.resolver;
  const lookup = reverseDnsLookup(resolver);
  // Without reverse DNS, a claim of an operator that publishes no ranges cannot be checked: taken on its word.
  const operators = resolver ? VERIFIED_OPERATORS : RANGE_OPERATORS;

  async function findImport(teamId: string, projectId: string, id: string): Promise<LogImportRow> {
    const row = await knex('log_imports').where({ id, team_id: teamId, project_id: projectId }).first();
    if (!row) throw notFound();
    return row as LogImportRow;
  }

  const importJob = defineJobHandler(LOG_IMPORT, {
    // A 5,000,000-line file takes a minute or two: the table runner renews its lease meanwhile, and
    // pg-boss, which keeps no heartbeat, expires the job only after `expireMs` (jobs.ts).
    async run({ importId }) {
      const file = join(directory, importFileName(importId));
      const row = (await knex('log_imports').where({ id: importId }).first()) as LogImportRow | undefined;
      // Its import deleted before its turn: nothing to parse, nothing to keep.
      if (!row) return rm(file, { force: true });
      if ((row.status !== 'queued' && row.status !== 'parsing') || !row.file_key) return;
      // Another attempt would not find it either: failed now, for what it is.
      if (!(await access(file).then(() => true, () => false))) {
        log.warn({ import: row.id, project: row.project_id, file }, 'log import failed: its upload is not in the upload folder');
        await clearImportRows(knex, row.id);
        await knex('log_imports').where({ id: row.id }).update({ status: 'failed', error: FILE_MISSING, file_key: null, finished_at: services.clock().toISOString() });
        return;
      }
      await knex('log_imports').where({ id: row.id }).update({ status: 'parsing' });
      const started = performance.now();
      // A retried parse starts from nothing: statistics are added up as they come (store.ts).
      await clearImportRows(knex, row.id);
      const run = startParse({ file, importId: row.id, projectId: row.project_id, spillAt: options.spillAt, operators }, options.threads ?? true, lookup);
      parses.track(row.id, () => run.close());
      const endWrites = await beginImportWrites(knex);
      try {
        const summary = await writeParsedRows(knex, run, services.dialect === 'postgres' ? 2 : 1);
        await endWrites();
        await completeImport(knex, row, summary, services.clock().toISOString());
        await rm(file, { force: true });
        if (parses.stopped(row.id)) return;
        // The import is complete whatever happens here: statistics for the planner only.
        await refreshPlannerStatistics(knex).catch((err: unknown) => log.warn({ err, import: row.id }, 'log tables not analysed'));
        log.info({ import: row.id, project: row.project_id, lines: summary.linesRead, kept: summary.kept, duration_ms: Math.round(performance.now() - started) }, 'log import parsed');
      } catch (error) {
        // Stopped because its import (or project) was deleted, here or by another process (its
        // rows then fail their foreign key): not a failure, and nothing is kept.
        if (parses.stopped(row.id) || !(await knex('log_imports').where({ id: row.id }).first('id'))) {
          await rm(file, { force: true });
          return;
        }
        // A gzip bomb fails at once: another attempt would inflate it again to the same end.
        if (error instanceof Error && error.message.startsWith(INFLATION_LIMIT)) {
          log.warn({ import: row.id, project: row.project_id, reason: error.message }, 'log import refused');
          await rm(file, { force: true });
          await clearImportRows(knex, row.id);
          await knex('log_imports').where({ id: row.id }).update({ status: 'failed', error: INFLATION_FAILED, file_key: null, finished_at: services.clock().toISOString() });
          return;
        }
        throw error;
      } finally {
        parses.forget(row.id);
        await endWrites().catch((err: unknown) => log.warn({ err, import: row.id }, 'SQLite settings not restored'));
        await run.close();
      }
    },
    async onFailed({ importId }, _message, cause) {
      log.error({ err: cause, import: importId }, 'log import failed');
      // The last attempt failed: the upload goes now (a first failure keeps it for the retry).
      await rm(join(directory, importFileName(importId)), { force: true });
      await clearImportRows(knex, importId);
      await knex('log_imports').where({ id: importId }).update({ status: 'failed', error: IMPORT_FAILED, file_key: null, finished_at: services.clock().toISOString() });
    },
  });

  /**
   * An upload's body, read to a staging file before its idempotency claim (`receiveUpload` of the
   * pipeline), hashed as it passes: refused before a byte is read when the project, the plan or
   * the announced length says no. The handler renames the file to its import's; whatever it does
   * not take goes with `discard`.
   */
  async function receiveUpload(caller: Caller, params: { project: string }, upload: Upload<Readable>): Promise<ReceivedUpload> {
    const project = await findProject(knex, caller, params.project);
    assertUnlocked(project);
    const plans = services.plans();
    assertIncluded(plans, caller.plan, 'logs.import_max_bytes', 'plan_limit.logs');
    const max = caller.plan.limits['logs.import_max_bytes'];
    if (upload.length !== null && !withinLimit(max, upload.length)) {
      throw new ApiError('log_import.too_large', { upgrade_to: limitUpgrade(plans, caller.plan, 'logs.import_max_bytes', upload.length) });
    }
    const file = join(directory, stagingFileName());
    const { size, digest } = await receiveFile(upload.body, file, max);
    return { ...upload, length: size, digest, file, discard: () => rm(file, { force: true }) };
  }

  /** The import of the project standing with these bytes (queued, parsing or completed), if any. */
  async function duplicateOf(projectId: string, digest: string): Promise<string | null> {
    const row = (await knex('log_imports').where({ project_id: projectId, content_sha256: digest }).whereNot('status', 'failed').first('id')) as { id: string } | undefined;
    return row?.id ?? null;
  }

  const duplicate = (projectId: string, earlier: string) =>
    new ApiError('log_import.duplicate', {
      detail: refusalDetails.duplicateLogImport(earlier, services.links.absolute(`/v1/projects/${projectId}/log-imports/${earlier}`)),
    });

  const handlers: LogHandlers = {
    async createLogImport(ctx, { params, upload }) {
      const project = await findProject(knex, ctx.caller, params.project);
      assertUnlocked(project);
      if (!upload?.file || !upload.digest) throw new ApiError('log_import.unsupported_media_type');
      const digest = upload.digest;
      const earlier = await duplicateOf(project.id, digest);
      if (earlier) throw duplicate(project.id, earlier);
      const id = randomUUID();
      const fileKey = importFileName(id);
      const size = upload.length ?? 0;
      const row: LogImportRow = {
        id,
        team_id: ctx.caller.teamId,
        project_id: project.id,
        status: 'queued',
        format: null,
        size_bytes: size,
        lines_read: 0,
        lines_kept: 0,
        lines_refused: 0,
        refusals: '[]',
        human_hits: 0,
        bot_hits: 0,
        period_from: null,
        period_to: null,
        file_key: fileKey,
        content_sha256: digest,
        error: null,
        created_at: ctx.now.toISOString(),
        finished_at: null,
      };
      // Renamed before the row exists: the parse may start the moment it commits.
      const file = join(directory, fileKey);
      await rename(upload.file, file);
      try {
        await transaction(knex, async (trx) => {
          await trx('log_imports').insert(row);
          await services.jobs.enqueue(LOG_IMPORT, { importId: id }, { trx });
        });
      } catch (error) {
        await rm(file, { force: true });
        // The same file sent twice at once: the digest's unique index lets one through.
        const first = await duplicateOf(project.id, digest);
        if (first) throw duplicate(project.id, first);
        throw error;
      }
      return { body: { data: toLogImport(row) }, headers: { Location: services.links.absolute(`/v1/projects/${project.id}/log-imports/${id}`) } };
    },

    async listLogImports(ctx, { params }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const rows = await newestFirst(reads('log_imports').where({ project_id: project.id }), ctx.page);
      return { items: rows as LogImportRow[], key: byCreation, map: (row: LogImportRow) => toLogImport(row) };
    },

    async getLogImport(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      return { body: { data: toLogImport(await findImport(ctx.caller.teamId, project.id, params.import)) } };
    },

    async deleteLogImport(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      assertUnlocked(project);
      const row = await findImport(ctx.caller.teamId, project.id, params.import);
      // Its parse stops and its file goes first; its statistics cascade with the row, so every
      // read and the pillar, which sum the project's completed imports, no longer count it.
      await eraseUploads([row.id]);
      // Its paths are in the log section of the reports made since it completed: they go too
      // (no one made while it was queued or parsing could show it).
      const since = row.finished_at && row.status === 'completed' ? row.finished_at : null;
      const removed = await needs.exports.logImportDeleteWith(project.id, since, async (trx) => deletedOrNotFound(await trx('log_imports').where({ id: row.id }).delete()));
      if (removed > 0) log.info({ import: row.id, project: project.id, exports: removed }, 'exports showing a deleted log import removed');
      await purgeDeleted();
    },

    async getLogInsights(ctx, { params }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const [totals, crawl] = await Promise.all([importTotals(reads, project.id), latestCrawlPages(reads, project.id)]);
      const join = createLogJoin(crawl?.pages ?? null);
      await eachUrlStat(reads, project.id, undefined, join.add);
      return { body: { data: join.insights(project.id, totals, totals.period, crawl?.id ?? null) } };
    },

    async listLogUrls(ctx, { params, query }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const items = await urlStatPage(reads, project.id, { family: query.family, verification: query.verification, after: ctx.page.after, limit: ctx.page.limit + 1 });
      return { items, key: (s: LogUrlStat) => [s.path, s.family, s.verification] };
    },

    async listLogDays(ctx, { params, query }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const q = reads('log_day_stats')
        .where({ project_id: project.id })
        .whereIn('import_id', reads('log_imports').where({ project_id: project.id, status: 'completed' }).select('id'))
        .groupBy('date', 'family', 'verification', 'status_class')
        .select('date', 'family', 'verification', 'status_class')
        .sum({ hits: 'hits' });
      if (query.family) q.andWhere({ family: query.family });
      const rows = ((await q) as Record<string, unknown>[]).map((r) => ({ ...r, hits: Number(r.hits) }) as LogDayStat);
      // Most recent day first; within a day by family, verification and status class. The key
      // inverts the date so one ascending comparison serves.
      rows.sort((a, b) => textOrder(b.date, a.date) || textOrder(a.family, b.family) || textOrder(a.verification, b.verification) || textOrder(a.status_class, b.status_class));
      const key = (d: LogDayStat) => [-Date.parse(d.date), d.family, d.verification, d.status_class];
      return { items: pageAfter(rows, key, ctx.page.after, ctx.page.limit), key };
    },

    async listLogFindings(ctx, { params, query }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const crawl = await latestCrawlPages(reads, project.id);
      let findings: LogFinding[] = [];
      if (crawl) {
        const join = createLogJoin(crawl.pages);
        await eachUrlStat(reads, project.id, undefined, join.add);
        findings = join.findings(query.kind);
      }
      const key = (f: { path: string }) => [f.path];
      return { items: pageAfter(findings, key, ctx.page.after, ctx.page.limit), key };
    },
  };

  const eraser: LogEraser = {
    async beforeProjectDelete(projectId) {
      await eraseUploads(await knex('log_imports').where({ project_id: projectId }).pluck('id'));
    },
    afterDelete: purgeDeleted,
  };

  return defineModule({
    name: 'logs',
    needs: ['exports'],
    handlers,
    jobs: [importJob],
    provides: { eraser, receiveUpload },
    start() {
      // Uploads left by a process that died (mid-upload, mid-parse), then those of any process
      // sharing the directory, at intervals.
      void sweep();
      sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      sweeper.unref();
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      await parses.stop(parses.running());
      if (temporary) await rm(directory, { recursive: true, force: true });
    },
  });
}
