/**
 * Settlement cost of the crawl comparison (docs/decisions/crawl-changes.md), store level: two
 * generated crawls of one campaign (N internal pages each, 3 issues per page) written straight
 * into the store with set-based inserts, then the settlement's queries timed on the second one:
 *
 * - before: what settlement did without the comparison (the issue counts of `analysing`, the
 *   previous crawl's look-up of `comparing`, the settling update);
 * - compare: the counts per check (`checkCounts`, read once at settlement) and `writeChanges`
 *   (new and fixed pairs and page changes copied into `crawl_changes`, the counts, this crawl's
 *   pillar scores; the previous crawl's come from its own comparison);
 * - recommendations: the fix list for `recommendations.ready`, from those counts;
 *   recommendations_read: the same list read alone (`GET …/recommendations`);
 * - writer_wait_max: the longest another write waited while the comparison ran.
 *
 * The second crawl shares 98 % of its URLs with the first; 1 page in 20 has other issues; 1 in 97
 * answers 500 where it answered 200. Prints one JSON document.
 *
 *   npx tsx bench/changes/run.ts [--pages 200000] [--database sqlite:/tmp/changes.db | postgres://…]
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { CHECKS, SEVERITY_RANK } from '@siteaudit/schema/rules';
import { migrate, openDatabase } from '../../packages/server/src/store/database.js';
import { previousComparableCrawl, writeChanges } from '../../packages/server/src/modules/crawls/changes.js';
import { recommendations } from '../../packages/server/src/modules/crawls/recommendations.js';
import * as checkCountsModule from '../../packages/server/src/modules/crawls/check-counts.js';
import * as summaryModule from '../../packages/server/src/modules/crawls/summary.js';

const { crawlChecks } = checkCountsModule;
/** Settlement counts the crawl's issues (`countChecks`; before migration 036 `checkCounts` did, and no summary was stored). */
const countsModule = checkCountsModule as Record<string, unknown>;
const checkCounts = (countsModule.countChecks ?? countsModule.checkCounts) as typeof checkCountsModule.checkCounts;
const { issueSummary } = summaryModule;
/**
 * The summary a crawl stores when it settles (migration 036), where the tree has it: settlement
 * computes it from the counts it read, and the reads below start from it. A tree before it reads
 * the issues on each call (the figures compare both in one run).
 */
const summaries = summaryModule as Record<string, unknown>;
const storing =
  countsModule.storeSummary && summaries.summariseIssues
    ? { store: countsModule.storeSummary as (trx: unknown, id: string, s: unknown) => Promise<void>, summarise: summaries.summariseIssues as (k: unknown, id: string, c: unknown) => Promise<unknown> }
    : null;
import type { CrawlRow } from '../../packages/server/src/modules/crawls/crawl-row.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '200000' }, database: { type: 'string' }, runs: { type: 'string', default: '3' } } });
const pages = Number(values.pages);
const runs = Number(values.runs);
const dir = values.database ? null : await mkdtemp(path.join(tmpdir(), 'changes-bench-'));
const db = openDatabase(values.database ?? `sqlite:${path.join(dir!, 'bench.db')}`);
const { knex } = db;
await migrate(db);

const now = new Date('2026-01-01T00:00:00.000Z');
const team = randomUUID();
const project = randomUUID();
const campaign = randomUUID();
await knex('teams').insert({ id: team, slug: `bench-${team.slice(0, 8)}`, name: 'Bench', plan: 'agency', created_at: now.toISOString() });
const columns = await knex('projects').columnInfo();
const projectRow: Record<string, unknown> = { id: project, team_id: team, name: 'Bench', slug: 'bench', url: 'https://bench.example/', domain: 'bench.example', created_at: now.toISOString() };
if ('locked' in columns) projectRow.locked = false;
await knex('projects').insert(projectRow);
await knex('campaigns').insert({ id: campaign, team_id: team, project_id: project, name: 'Bench', start_url: 'https://bench.example/', max_depth: 10, max_urls: pages * 2, created_at: now.toISOString() });

/** The checks the generated issues cycle through, with their catalogue severity and category. */
const NAMES = Object.keys(CHECKS).filter((n) => !(CHECKS as Record<string, { scope?: string }>)[n].scope).slice(0, 30);
await knex.schema.dropTableIfExists('bench_checks');
await knex.schema.createTable('bench_checks', (t) => {
  t.integer('idx').primary();
  t.string('name', 100);
  t.string('severity', 10);
  t.integer('severity_rank');
  t.string('category', 50);
});
await knex('bench_checks').insert(
  NAMES.map((name, idx) => {
    const def = (CHECKS as Record<string, { severity: 'error' | 'warning' | 'info'; category: string }>)[name];
    return { idx, name, severity: def.severity, severity_rank: SEVERITY_RANK[def.severity], category: def.category };
  }),
);

/**
 * A page's `url_hash` as the crawler stores it: 64 hex digits (SHA-256), in no particular order
 * of the page number and spread evenly from the first digit, so that the indexes holding it have
 * their real size and insertion order, and ranges of it hold their share of the pages (until
 * 2026-11-28 the SQLite form began with eight zeros: every range batch but the first was empty).
 */
const HASH_OF_I = {
  // Spread evenly from the first digit, as SHA-256's are: the comparison's batches are ranges of it.
  sqlite: "printf('%08x%08x%08x%08x%08x%08x%08x%08x', (i * 2654435761) % 4294967291, i, (i * 40503) % 65521, i * 7919, (i * 2246822519) % 4294967291, i * 31, (i * 3266489917) % 4294967291, i * 131)",
  postgres: "md5(i::text) || md5('p' || i::text)",
} as const;

const log = (what: string) => process.stderr.write(`${Math.round(performance.now())} ms: ${what}\n`);

async function crawl(index: number, first: number, shift: boolean): Promise<CrawlRow> {
  const id = randomUUID();
  const at = new Date(now.getTime() + index * 3_600_000).toISOString();
  const row = {
    id,
    team_id: team,
    project_id: project,
    campaign_id: campaign,
    status: 'completed',
    stage: 'comparing',
    active: false,
    settled: false,
    stage_plan: '[]',
    pages_budget: pages * 2,
    trigger: 'manual',
    config: JSON.stringify({ check_accessibility: false }),
    config_hash: 'bench',
    health_score: 80 - index,
    started_at: at,
    finished_at: at,
    created_at: at,
  };
  await knex('crawls').insert(row);
  log(`crawl ${index}: pages`);
  const series = `with recursive n(i) as (select ${first} union all select i + 1 from n where i < ${first + pages - 1})`;
  const hash = HASH_OF_I[db.dialect];
  // Pages: i from `first`; every 100th answers 404; in the second crawl every 97th answers 500.
  await knex.raw(
    `insert into crawl_pages (crawl_id, seq, url, url_hash, status_code, content_type, section, is_internal, depth, internal_links, external_links, images, images_without_alt)
     ${series} select ?, i, 'https://bench.example/p/' || i, ${hash},
       case when i % 100 = 0 then 404 when ? and i % 97 = 0 then 500 else 200 end, 'text/html; charset=utf-8', '/s' || (i % 8) || '/', ?, 2, 10, 1, 3, 0 from n`,
    [id, shift, true],
  );
  log(`crawl ${index}: issues`);
  // Three issues a page; in the second crawl one page in 20 has the next three checks instead.
  await knex.raw(
    `insert into crawl_issues (crawl_id, seq, name, severity, severity_rank, category, url, url_hash, section, details)
     ${series}, k(j) as (select 0 union all select 1 union all select 2)
     select ?, i * 3 + j, c.name, c.severity, c.severity_rank, c.category, 'https://bench.example/p/' || i, ${hash}, '/s' || (i % 8) || '/', 'generated'
     from n cross join k join bench_checks c on c.idx = (i * 3 + j + case when ? and i % 20 = 0 then 3 else 0 end) % ${NAMES.length}`,
    [id, shift],
  );
  return (await knex('crawls').where({ id }).first()) as CrawlRow;
}

const t0 = performance.now();
const before = await crawl(0, 0, false);
// The first crawl settles as the server settles it: its own (first) comparison stored.
const first = await writeChanges({ knex, write: (work) => knex.transaction(work), crawl: before, previous: undefined });
await knex('crawls').where({ id: before.id }).update({ settled: true, changes: JSON.stringify(first) });
// And, where the tree stores it, its summary: the next comparison reads its counts from it.
if (storing) {
  const s = await storing.summarise(knex, before.id, undefined);
  await knex.transaction((trx) => storing.store(trx, before.id, s));
}
const after = await crawl(1, Math.round(pages * 0.02), true);
const setupMs = performance.now() - t0;

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: Math.round(performance.now() - start), result };
}

if (process.env.BENCH_STATEMENTS) {
  const started = new Map<string, number>();
  knex.on('query', (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, performance.now()));
  knex.on('query-response', (_r: unknown, q: { __knexQueryUid: string; sql: string }) => {
    const ms = performance.now() - (started.get(q.__knexQueryUid) ?? 0);
    if (ms > 50) process.stderr.write(`${Math.round(ms)} ms ${q.sql.replace(/\s+/g, ' ').slice(0, 140)}\n`);
  });
}

/**
 * Another team's write while the comparison runs: a one-row update every 50 ms; the longest it
 * waited. SQLite's single connection serves one statement or transaction at a time.
 */
function writerProbe(): { stop(): Promise<number> } {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      await knex('teams').where({ id: team }).update({ name: 'Bench' });
      longest = Math.max(longest, performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return Math.round(longest);
    },
  };
}

const samples: { before: number; counts: number; compare: number; summary_store: number | null; recommendations: number; recommendations_read: number; writer_wait_max: number }[] = [];
let summary: Awaited<ReturnType<typeof writeChanges>> | null = null;
for (let r = 0; r < runs; r++) {
  // What settlement did before: the counts of `analysing`, the look-up of `comparing`, the settling update.
  const base = await time(() =>
    knex.transaction(async (trx) => {
      await trx('crawl_issues').where({ crawl_id: after.id }).select('severity').count({ count: '*' }).groupBy('severity');
      await trx('crawls').where({ campaign_id: campaign, status: 'completed', settled: true }).whereNot({ id: after.id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first('config_hash');
      await trx('crawls').where({ id: after.id }).update({ stage: 'done' });
    }),
  );
  log('compare');
  const probe = writerProbe();
  // As settlement does it: the counts per check read once, then the comparison's fenced write.
  const counts = await time(() => checkCounts(knex, after.id));
  const compare = await time(async () => writeChanges({ knex, write: (work) => knex.transaction(work), crawl: after, previous: await previousComparableCrawl(knex, after), counted: counts.result }));
  // Settlement then stores the crawl's summary (counts, scored pages, template decisions).
  const summaryStore = storing
    ? await time(async () => {
        const s = await storing.summarise(knex, after.id, counts.result);
        await knex.transaction((trx) => storing.store(trx, after.id, s));
      })
    : null;
  const writerWait = await probe.stop();
  summary = compare.result;
  const fixes = await time(() => recommendations(knex, after.id, 'en', counts.result));
  const alone = await time(() => recommendations(knex, after.id, 'en'));
  samples.push({ before: base.ms, counts: counts.ms, compare: counts.ms + compare.ms, summary_store: summaryStore?.ms ?? null, recommendations: fixes.ms, recommendations_read: alone.ms, writer_wait_max: writerWait });
}
// The settled crawl's reads that start from its counts per check: the issue summary (counts, HTML
// pages, template decisions) and the scorecard's (counts and scored pages).
await knex('crawls').where({ id: after.id }).update({ settled: true, changes: JSON.stringify(summary) });
const reads: { issue_summary_read: number; scorecard_counts_read: number }[] = [];
for (let r = 0; r < runs; r++) {
  log('reads');
  const issueSummaryRead = await time(async () => issueSummary(knex, (await knex('crawls').where({ id: after.id }).first()) as CrawlRow, 'en'));
  const countsRead = await time(() => crawlChecks(knex, after.id));
  reads.push({ issue_summary_read: issueSummaryRead.ms, scorecard_counts_read: countsRead.ms });
}
const readMedian = (k: keyof (typeof reads)[number]) => [...reads].sort((a, b) => a[k] - b[k])[Math.floor(reads.length / 2)][k];
const [{ rows }] = await knex('crawl_changes').where({ crawl_id: after.id }).count({ rows: '*' });
const median = (k: Exclude<keyof (typeof samples)[number], 'summary_store'>) => [...samples].sort((a, b) => a[k] - b[k])[Math.floor(samples.length / 2)][k];

console.log(
  JSON.stringify(
    {
      database: db.dialect,
      pages,
      issues_per_crawl: pages * 3,
      setup_ms: Math.round(setupMs),
      runs: samples,
      median_ms: {
        before: median('before'),
        compare: median('compare'),
        recommendations: median('recommendations'),
        recommendations_read: median('recommendations_read'),
        writer_wait_max: median('writer_wait_max'),
        summary_store: storing ? [...samples.map((x) => x.summary_store ?? 0)].sort((a, b) => a - b)[Math.floor(samples.length / 2)] : null,
        issue_summary_read: readMedian('issue_summary_read'),
        scorecard_counts_read: readMedian('scorecard_counts_read'),
      },
      reads,
      crawl_changes_rows: Number(rows),
      summary: summary && { issues: summary.issues, pages: summary.pages, health: summary.health },
    },
    null,
    2,
  ),
);
await knex.schema.dropTableIfExists('bench_checks');
await knex.destroy();
if (dir) await rm(dir, { recursive: true, force: true });
