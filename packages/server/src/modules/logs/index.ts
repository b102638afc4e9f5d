/**
 * Log exploration (extension, docs/decisions/logs.md): access-log uploads parsed by a durable job
 * in a thread of their own, bot claims verified, aggregates stored without addresses, and reads
 * joined with the latest settled crawl.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogDayStat, LogFinding, LogUrlStat } from '@siteaudit/schema';
import { createLogJoin, limitUpgrade, withinLimit } from '@siteaudit/schema/rules';
import { assertIncluded } from '@siteaudit/schema/pipeline';
import type { Handlers } from '../../http/binder.js';
import { ApiError, notFound } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';
import { defineJobHandler, defineModule } from '../module.js';
import { LOG_IMPORT } from './jobs.js';
import { byCreation, newestFirst } from '../paging.js';
import { assertUnlocked, findProject } from '../projects/project-row.js';
import { latestCrawlPages } from './join-source.js';
import { startParse } from './parse-runner.js';
import { reverseDnsLookup, systemResolver, type DnsResolver } from './reverse-dns.js';
import { eachUrlStat } from './report-reads.js';
import { clearImportRows, completeImport, importTotals, refreshPlannerStatistics, toLogImport, urlStatPage, writeRows, type LogImportRow } from './store.js';
import { receiveFile } from './upload.js';

export interface LogsOptions {
  /** Where uploads wait for parsing (default SITEAUDIT_LOG_DIR, else a temporary directory). */
  directory?: string;
  /** Reverse-DNS adapter for claims outside the published ranges; null turns the step off. Default: the system resolver. */
  resolver?: DnsResolver | null;
  /** Parse in a worker thread (default true); false parses on this thread (tests). */
  threads?: boolean;
  /** @internal URL statistics a parse holds before it spills them to the store (default SPILL_AT; tests set it small). */
  spillAt?: number;
}

const IMPORT_FAILED = 'log_import.parse_failed: The file could not be read (a gzip stream cut short, or unreadable bytes). Send it again.';

type LogHandlers = Pick<Handlers, 'createLogImport' | 'listLogImports' | 'getLogImport' | 'getLogInsights' | 'listLogUrls' | 'listLogDays' | 'listLogFindings'>;

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

export function logsModule(services: Services, options: LogsOptions = {}) {
  const { knex } = services;
  const directory = options.directory ?? process.env.SITEAUDIT_LOG_DIR ?? mkdtempSync(join(tmpdir(), 'siteaudit-logs-'));
  mkdirSync(directory, { recursive: true });
  const lookup = reverseDnsLookup(options.resolver === undefined ? systemResolver : options.resolver);
  const log = services.logger.child({ module: 'logs' });

  async function findImport(teamId: string, projectId: string, id: string): Promise<LogImportRow> {
    const row = await knex('log_imports').where({ id, team_id: teamId, project_id: projectId }).first();
    if (!row) throw notFound();
    return row as LogImportRow;
  }

  const importJob = defineJobHandler(LOG_IMPORT, {
    // A 5,000,000-line file takes a minute or two: the table runner renews its lease meanwhile, and
    // pg-boss, which keeps no heartbeat, expires the job only after `expireMs` (jobs.ts).
    async run({ importId }) {
      const row = (await knex('log_imports').where({ id: importId }).first()) as LogImportRow | undefined;
      if (!row || (row.status !== 'queued' && row.status !== 'parsing') || !row.file_key) return;
      await knex('log_imports').where({ id: row.id }).update({ status: 'parsing' });
      const started = performance.now();
      const file = join(directory, row.file_key);
      // A retried parse starts from nothing: statistics are added up as they come (store.ts).
      await clearImportRows(knex, row.id);
      const run = startParse({ file, importId: row.id, projectId: row.project_id, spillAt: options.spillAt }, options.threads ?? true, lookup);
      try {
        // One batch at a time, each its own statement (the single SQLite connection is never held
        // for long); the thread builds the next while this one is written, and parses on only
        // as far as one part ahead of the store. The reads see the rows once the import is completed.
        let next = run.next();
        let step = await next;
        while ('batch' in step) {
          next = run.next();
          next.catch(() => undefined); // awaited next turn; a failed write must not leave it unhandled
          await writeRows(knex, step.batch);
          step = await next;
        }
        const summary = step.done;
        await completeImport(knex, row, summary, services.clock().toISOString());
        await rm(file, { force: true });
        // The import is complete whatever happens here: statistics for the planner only.
        await refreshPlannerStatistics(knex).catch((err: unknown) => log.warn({ err, import: row.id }, 'log tables not analysed'));
        log.info({ import: row.id, project: row.project_id, lines: summary.linesRead, kept: summary.kept, duration_ms: Math.round(performance.now() - started) }, 'log import parsed');
      } finally {
        await run.close();
      }
    },
    async onFailed({ importId }, _message, cause) {
      log.error({ err: cause, import: importId }, 'log import failed');
      const row = (await knex('log_imports').where({ id: importId }).first()) as LogImportRow | undefined;
      if (row?.file_key) await rm(join(directory, row.file_key), { force: true });
      await clearImportRows(knex, importId);
      await knex('log_imports').where({ id: importId }).update({ status: 'failed', error: IMPORT_FAILED, file_key: null, finished_at: services.clock().toISOString() });
    },
  });

  const handlers: LogHandlers = {
    async createLogImport(ctx, { params, upload }) {
      const project = await findProject(knex, ctx.caller, params.project);
      assertUnlocked(project);
      const plans = services.plans();
      assertIncluded(plans, ctx.caller.plan, 'logs.import_max_bytes', 'plan_limit.logs');
      const max = ctx.caller.plan.limits['logs.import_max_bytes'];
      if (!upload) throw new ApiError('log_import.unsupported_media_type');
      if (upload.length !== null && !withinLimit(max, upload.length)) {
        throw new ApiError('log_import.too_large', { upgrade_to: limitUpgrade(plans, ctx.caller.plan, 'logs.import_max_bytes', upload.length) });
      }
      const id = randomUUID();
      const fileKey = `${id}.log`;
      const size = await receiveFile(upload.body, join(directory, fileKey), max);
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
        error: null,
        created_at: ctx.now.toISOString(),
        finished_at: null,
      };
      await transaction(knex, async (trx) => {
        await trx('log_imports').insert(row);
        await services.jobs.enqueue(LOG_IMPORT, { importId: id }, { trx });
      });
      return { body: { data: toLogImport(row) }, headers: { Location: services.links.absolute(`/v1/projects/${project.id}/log-imports/${id}`) } };
    },

    async listLogImports(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const rows = await newestFirst(knex('log_imports').where({ project_id: project.id }), ctx.page);
      return { items: rows as LogImportRow[], key: byCreation, map: (row: LogImportRow) => toLogImport(row) };
    },

    async getLogImport(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      return { body: { data: toLogImport(await findImport(ctx.caller.teamId, project.id, params.import)) } };
    },

    async getLogInsights(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const [totals, crawl] = await Promise.all([importTotals(knex, project.id), latestCrawlPages(knex, project.id)]);
      const join = createLogJoin(crawl?.pages ?? null);
      await eachUrlStat(knex, project.id, undefined, join.add);
      return { body: { data: join.insights(project.id, totals.humans, totals.period, crawl?.id ?? null) } };
    },

    async listLogUrls(ctx, { params, query }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const items = await urlStatPage(knex, project.id, { family: query.family, verification: query.verification, after: ctx.page.after, limit: ctx.page.limit + 1 });
      return { items, key: (s: LogUrlStat) => [s.path, s.family, s.verification] };
    },

    async listLogDays(ctx, { params, query }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const q = knex('log_day_stats')
        .where({ project_id: project.id })
        .whereIn('import_id', knex('log_imports').where({ project_id: project.id, status: 'completed' }).select('id'))
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
      const project = await findProject(knex, ctx.caller, params.project);
      const crawl = await latestCrawlPages(knex, project.id);
      let findings: LogFinding[] = [];
      if (crawl) {
        const join = createLogJoin(crawl.pages);
        await eachUrlStat(knex, project.id, undefined, join.add);
        findings = join.findings(query.kind);
      }
      const key = (f: { path: string }) => [f.path];
      return { items: pageAfter(findings, key, ctx.page.after, ctx.page.limit), key };
    },
  };

  return defineModule({ name: 'logs', handlers, jobs: [importJob] });
}
