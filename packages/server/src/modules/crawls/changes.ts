/**
 * The comparison of a settled crawl with the previous comparable crawl of its campaign
 * (docs/decisions/crawl-changes.md). Everything is set-based SQL over the stored rows: the new and
 * fixed (check, URL) pairs and the page changes are copied by `insert … select` into
 * `crawl_changes`, the counts come from grouped queries; no crawl is loaded into memory, so a
 * 200,000-page crawl settles without holding its pages.
 */
import type { Knex } from 'knex';
import { type CrawlChangesSummary, type Severity } from '@siteaudit/schema';
import {
  CHANGE_KINDS,
  CHECKS,
  TARGETED_CHECKS,
  CRAWL_PILLARS,
  attributeScoreChange,
  exactScoreOf,
  isSiteWideCheck,
  notComparedSummary,
  pillarData,
  type ChangeKind,
  type CrawlPillar,
  type ScoreData,
} from '@siteaudit/schema/rules';
import { bool, isPostgres, json } from '../../store/database.js';
import { crawlChecks, type CheckCount } from './check-counts.js';
import type { CrawlRow } from './crawl-row.js';
import { issueBatches, seqRanges, type IssueBatch } from './change-batches.js';

type Db = Knex | Knex.Transaction;
type Counts = Record<Severity, number>;

/** What `crawls.changes` holds: the summary without the crawl id (the row's own). */
export type StoredChanges = Omit<CrawlChangesSummary, 'crawl_id'>;

export const KIND_RANK = Object.fromEntries(CHANGE_KINDS.map((kind, rank) => [kind, rank])) as Record<ChangeKind, number>;

/** The previous comparable crawl: same campaign and settings, completed, settled, not blocked, launched before. */
export async function previousComparableCrawl(db: Db, crawl: CrawlRow): Promise<CrawlRow | undefined> {
  return (await db('crawls')
    .where({ campaign_id: crawl.campaign_id, config_hash: crawl.config_hash, status: 'completed', settled: true, blocked: false })
    .whereNot({ id: crawl.id })
    .andWhere((q) => q.where('created_at', '<', crawl.created_at).orWhere((q2) => q2.where('created_at', '=', crawl.created_at).andWhere('id', '<', crawl.id)))
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first()) as CrawlRow | undefined;
}

/** A crawl pillar of one crawl: its published score, and what it is computed from (null: not measured). */
interface PillarSide {
  score: number | null;
  exact: number | null;
  data: ScoreData | null;
}

/**
 * The scorecard's crawl pillars of one crawl, as the scorecard computes them, with the checks
 * each counts (`pillarData`): the technique score is the one the crawler stored (PageSpeed
 * included, when measured), the others are computed from the checks.
 */
function pillarSides(crawl: CrawlRow, data: Awaited<ReturnType<typeof crawlChecks>>): Record<CrawlPillar, PillarSide> {
  const config = json<Record<string, unknown>>(crawl.config, {});
  const byPillar = pillarData(data, {
    aiChecked: bool(config.check_ai_reachability as boolean),
    accessibilityChecked: bool(config.check_accessibility as boolean) || bool(config.check_accessibility_rendered as boolean),
  });
  const side = (exact: number | null, pillarChecks: ScoreData | null): PillarSide => ({ score: exact === null ? null : Math.round(exact), exact, data: pillarChecks });
  const computed = (pillarChecks: ScoreData | null) => side(pillarChecks ? exactScoreOf(pillarChecks) : null, pillarChecks);
  return {
    technique: side(crawl.health_score === null ? null : Number(crawl.health_score), byPillar.technique),
    contenu: computed(byPillar.contenu),
    accessibilite: computed(byPillar.accessibilite),
  };
}

/**
 * The previous crawl's pillars: the scores its own comparison stored when it settled (a score
 * published stays as published), else computed again (a crawl settled before comparisons
 * existed); the checks are read again, for the attribution of the movement.
 */
async function previousSides(db: Db, previous: CrawlRow): Promise<Record<CrawlPillar, PillarSide>> {
  const sides = pillarSides(previous, await crawlChecks(db, previous.id));
  const stored = json<StoredChanges | null>(previous.changes ?? null, null);
  if (stored && stored.health.length === CRAWL_PILLARS.length) for (const p of stored.health) sides[p.key] = { ...sides[p.key], score: p.score };
  return sides;
}

/** A pillar's entry of the summary: the two scores, their difference and why it moved. */
function pillarHealth(key: CrawlPillar, now: PillarSide, before: PillarSide | null): StoredChanges['health'][number] {
  const previousScore = before?.score ?? null;
  const attribution =
    before && now.data && before.data ? attributeScoreChange({ exact: before.exact, data: before.data }, { exact: now.exact, data: now.data }) : null;
  return { key, score: now.score, previous_score: previousScore, delta: now.score === null || previousScore === null ? null : now.score - previousScore, attribution };
}

const zero = (): Counts => ({ error: 0, warning: 0, info: 0 });

const TARGETED = TARGETED_CHECKS.map((n) => `'${n}'`).join(', ');

/**
 * Whether occurrence `<a>` (of its crawl) has its counterpart in crawl `?` (bound twice): an
 * occurrence of the same check on the same URL with the same details; or, for a check that
 * describes the page itself (not `TARGETED_CHECKS`), the pair's only occurrence in each crawl (a
 * word count that moved is the same finding). Two broken links on a page are two occurrences: a
 * second one is new.
 */
export const matchedIn = (a: string) => `(exists (select 1 from crawl_issues p where p.crawl_id = ? and p.name = ${a}.name and p.url_hash = ${a}.url_hash and p.details = ${a}.details)
  or (${a}.name not in (${TARGETED})
    and exists (select 1 from crawl_issues p where p.crawl_id = ? and p.name = ${a}.name and p.url_hash = ${a}.url_hash
      and not exists (select 1 from crawl_issues p2 where p2.crawl_id = p.crawl_id and p2.name = p.name and p2.url_hash = p.url_hash and p2.seq <> p.seq))
    and not exists (select 1 from crawl_issues d where d.crawl_id = ${a}.crawl_id and d.name = ${a}.name and d.url_hash = ${a}.url_hash and d.seq <> ${a}.seq)))`;

/** Site-wide checks (robots.txt, sitemaps…): never gone with a page. Catalogue names are [a-z0-9_]. */
const SITE_WIDE = Object.keys(CHECKS).filter(isSiteWideCheck).map((n) => `'${n}'`).join(', ');

/**
 * Occurrence `i` of the previous crawl went with its page: its URL was an internal page then, and
 * in crawl `?` it is not one answering 2xx without noindex (removed, redirected, 4xx/5xx, no
 * answer, blocked by robots.txt, noindex), a meta-refresh stub being a redirect (a 2xx page with
 * `redirect_url`, docs/decisions/audit-judgement.md). Binds: the crawl, then `true` twice.
 */
const GONE_WITH_PAGE = `(i.name not in (${SITE_WIDE})
  and exists (select 1 from crawl_pages pp where pp.crawl_id = i.crawl_id and pp.url_hash = i.url_hash and pp.is_internal = ?)
  and not exists (select 1 from crawl_pages q where q.crawl_id = ? and q.url_hash = i.url_hash and q.is_internal = ? and q.status_code >= 200 and q.status_code < 300 and q.redirect_url is null
    and not exists (select 1 from crawl_issues n where n.crawl_id = q.crawl_id and n.name = 'noindex' and n.url_hash = q.url_hash)))`;

const STATUS_DIFFERS = '(c.status_code <> p.status_code or (c.status_code is null and p.status_code is not null) or (c.status_code is not null and p.status_code is null))';

/**
 * The URL redirects elsewhere than it did: another target, one where there was none (a 3xx, or a
 * meta-refresh stub answering 200), or none where there was one. With the same status it is
 * `redirect_changed`; with another, `status_changed` says it (and carries both targets).
 */
const REDIRECT_DIFFERS = '(c.redirect_url <> p.redirect_url or (c.redirect_url is null and p.redirect_url is not null) or (c.redirect_url is not null and p.redirect_url is null))';

/** Runs `work` in a transaction: the crawl's fenced write at settlement (`lease.write`). */
export type Write = <T>(work: (trx: Knex.Transaction) => Promise<T>) => Promise<T>;

/**
 * A comparison to write: the store it reads (`knex`) and how it writes (`write`: the crawl job's
 * fenced writes), the crawl, the previous comparable crawl (none: nothing to compare), and the
 * crawl's counts per check when the caller has read them (`checkCounts`), so settlement reads
 * them once.
 */
export interface Comparison {
  knex: Knex;
  write: Write;
  crawl: CrawlRow;
  previous: CrawlRow | undefined;
  counted?: CheckCount[];
}

/**
 * Copies the changes of `crawl` against `previous` into `crawl_changes`, replacing any a resumed
 * run wrote. PostgreSQL: one transaction (other writers do not wait for it). SQLite: batches
 * (change-batches.ts), each its own transaction, so other requests are served between them; an
 * interrupted run leaves rows that the next one deletes first (they are read only once the crawl
 * is settled).
 */
async function copyChanges(comparison: Comparison, previous: CrawlRow, counted: CheckCount[]): Promise<void> {
  const { knex, write, crawl } = comparison;
  // This crawl's occurrences without a counterpart in the previous one.
  const issuesNew = (db: Db, batch: IssueBatch | null) =>
    db.raw(
      `insert into crawl_changes (crawl_id, kind_rank, seq, kind, name, severity, category, url, details, status_code, previous_status_code, redirect_url, previous_redirect_url)
       select ?, ?, i.seq, 'issue_new', i.name, i.severity, i.category, i.url, i.details, null, null, null, null
       from crawl_issues i where i.crawl_id = ? and (${batch?.sql ?? '1 = 1'}) and not ${matchedIn('i')}`,
      [crawl.id, KIND_RANK.issue_new, crawl.id, ...(batch?.bindings ?? []), previous.id, previous.id],
    );
  // The previous crawl's occurrences without a counterpart in this one: fixed, or gone with their page.
  const issuesGone = (db: Db, batch: IssueBatch | null) =>
    db.raw(
      `insert into crawl_changes (crawl_id, kind_rank, seq, kind, name, severity, category, url, details, status_code, previous_status_code, redirect_url, previous_redirect_url)
       select ?, case when f.gone = 1 then ${KIND_RANK.issue_gone_with_page} else ${KIND_RANK.issue_fixed} end, f.seq, case when f.gone = 1 then 'issue_gone_with_page' else 'issue_fixed' end,
         f.name, f.severity, f.category, f.url, f.details, null, null, null, null
       from (select i.seq, i.name, i.severity, i.category, i.url, i.details, case when ${GONE_WITH_PAGE} then 1 else 0 end as gone
             from crawl_issues i where i.crawl_id = ? and (${batch?.sql ?? '1 = 1'}) and not ${matchedIn('i')}) f`,
      [crawl.id, true, crawl.id, true, previous.id, ...(batch?.bindings ?? []), crawl.id, crawl.id],
    );
  // This crawl's pages absent from the previous crawl (added), there with another status
  // (changed), or with the same status and another redirect target (a page turned into a
  // meta-refresh stub still answers 200), in one pass: URLs are unique per crawl, so the join
  // finds one page at most; a page whose status changed is that alone.
  const pagesAddedOrChanged = (db: Db, range: [number, number] | null) =>
    db.raw(
      `insert into crawl_changes (crawl_id, kind_rank, seq, kind, name, severity, category, url, details, status_code, previous_status_code, redirect_url, previous_redirect_url)
       select ?, case when p.url_hash is null then ${KIND_RANK.page_added} when ${STATUS_DIFFERS} then ${KIND_RANK.status_changed} else ${KIND_RANK.redirect_changed} end, c.seq,
         case when p.url_hash is null then 'page_added' when ${STATUS_DIFFERS} then 'status_changed' else 'redirect_changed' end, null, null, null, c.url, null,
         c.status_code, p.status_code, c.redirect_url, p.redirect_url
       from crawl_pages c left join crawl_pages p on p.crawl_id = ? and p.url_hash = c.url_hash and p.is_internal = ?
       where c.crawl_id = ? and ${inRange(range)} and c.is_internal = ? and (p.url_hash is null or ${STATUS_DIFFERS} or ${REDIRECT_DIFFERS})`,
      [crawl.id, previous.id, true, crawl.id, ...(range ?? []), true],
    );
  const pagesRemoved = (db: Db, range: [number, number] | null) =>
    db.raw(
      `insert into crawl_changes (crawl_id, kind_rank, seq, kind, name, severity, category, url, details, status_code, previous_status_code, redirect_url, previous_redirect_url)
       select ?, ?, c.seq, 'page_removed', null, null, null, c.url, null, null, c.status_code, null, c.redirect_url
       from crawl_pages c
       where c.crawl_id = ? and ${inRange(range)} and c.is_internal = ?
         and not exists (select 1 from crawl_pages p where p.crawl_id = ? and p.url_hash = c.url_hash and p.is_internal = ?)`,
      [crawl.id, KIND_RANK.page_removed, previous.id, ...(range ?? []), true, crawl.id, true],
    );

  if (isPostgres(knex)) {
    await write(async (trx) => {
      await trx('crawl_changes').where({ crawl_id: crawl.id }).delete();
      // Hashing a crawl's pairs takes some 75 MB: in memory rather than in batches on disk. On a
      // table without statistics yet, the planner would rather sort both crawls for a merge join:
      // 3.5 times slower (docs/benchmarks.md).
      await trx.raw("set local work_mem = '64MB'");
      await trx.raw('set local enable_mergejoin = off');
      await issuesNew(trx, null);
      await issuesGone(trx, null);
      await pagesAddedOrChanged(trx, null);
      await pagesRemoved(trx, null);
    });
    return;
  }
  await write((trx) => trx('crawl_changes').where({ crawl_id: crawl.id }).delete());
  const previousCounts = (await knex('crawl_issues').where({ crawl_id: previous.id }).select('name').count({ occurrences: '*' }).groupBy('name')) as { name: string; occurrences: string | number }[];
  for (const batch of issueBatches(counted)) await write((trx) => issuesNew(trx, batch));
  for (const batch of issueBatches(previousCounts.map((c) => ({ name: c.name, occurrences: Number(c.occurrences) })))) {
    await write((trx) => issuesGone(trx, batch));
  }
  const seqs = async (crawlId: string) => {
    const [{ min, max }] = await knex('crawl_pages').where({ crawl_id: crawlId }).min({ min: 'seq' }).max({ max: 'seq' });
    return seqRanges(min === null ? null : Number(min), max === null ? null : Number(max));
  };
  for (const range of await seqs(crawl.id)) await write((trx) => pagesAddedOrChanged(trx, range));
  for (const range of await seqs(previous.id)) await write((trx) => pagesRemoved(trx, range));
}

/** The pages `c` in a batch's `seq` range; without one, every page (bounds would lead PostgreSQL to a nested loop). */
const inRange = (range: [number, number] | null) => (range ? 'c.seq >= ? and c.seq < ?' : '1 = 1');

/**
 * Compares the crawl with the previous one, writes the changes through `write` (replacing any a
 * resumed run wrote) and returns the summary, which the caller stores with the step done.
 */
export async function writeChanges(comparison: Comparison): Promise<StoredChanges> {
  const { knex, write, crawl, previous, counted } = comparison;
  const current = await crawlChecks(knex, crawl.id, counted);
  const sides = pillarSides(crawl, current);
  const empty = { new: zero(), fixed: zero(), gone_with_page: zero(), persisting: zero() };
  if (bool(crawl.blocked) || !previous) {
    await write((trx) => trx('crawl_changes').where({ crawl_id: crawl.id }).delete());
    return {
      previous_crawl_id: null,
      basis: bool(crawl.blocked) ? 'blocked' : 'no_previous_crawl',
      issues: empty,
      pages: { added: 0, removed: 0, status_changed: 0, redirect_changed: 0 },
      health: CRAWL_PILLARS.map((key) => pillarHealth(key, sides[key], null)),
      checks: [],
    };
  }
  await copyChanges(comparison, previous, current.checks);
  const db = knex;

  // Occurrences per check: those of this crawl (crawlChecks), and the new, fixed and gone ones
  // just written (one row per occurrence); persisting = this crawl's occurrences − new ones.
  const moved = (await db('crawl_changes')
    .where({ crawl_id: crawl.id })
    .whereIn('kind_rank', [KIND_RANK.issue_new, KIND_RANK.issue_fixed, KIND_RANK.issue_gone_with_page])
    .select('kind', 'name', 'severity', 'category')
    .count({ occurrences: '*' })
    .groupBy('kind', 'name', 'severity', 'category')) as { kind: string; name: string; severity: Severity; category: string; occurrences: string | number }[];
  const checks = new Map<string, CrawlChangesSummary['checks'][number]>();
  for (const c of current.checks) checks.set(c.name, { name: c.name, severity: c.severity, category: c.category, new: 0, fixed: 0, gone_with_page: 0, persisting: c.occurrences });
  for (const m of moved) {
    const entry = checks.get(m.name) ?? { name: m.name, severity: m.severity, category: m.category, new: 0, fixed: 0, gone_with_page: 0, persisting: 0 };
    const n = Number(m.occurrences);
    if (m.kind === 'issue_new') {
      entry.new += n;
      entry.persisting -= n;
    } else if (m.kind === 'issue_fixed') entry.fixed += n;
    else entry.gone_with_page += n;
    checks.set(m.name, entry);
  }
  const issues = { new: zero(), fixed: zero(), gone_with_page: zero(), persisting: zero() };
  for (const c of checks.values()) {
    issues.new[c.severity] += c.new;
    issues.fixed[c.severity] += c.fixed;
    issues.gone_with_page[c.severity] += c.gone_with_page;
    issues.persisting[c.severity] += c.persisting;
  }
  const pageCounts = (await db('crawl_changes').where({ crawl_id: crawl.id }).whereIn('kind_rank', [KIND_RANK.page_added, KIND_RANK.page_removed, KIND_RANK.status_changed, KIND_RANK.redirect_changed]).select('kind').count({ n: '*' }).groupBy('kind')) as { kind: string; n: string | number }[];
  const pages = (kind: string) => Number(pageCounts.find((p) => p.kind === kind)?.n ?? 0);
  const earlier = await previousSides(db, previous);
  return {
    previous_crawl_id: previous.id,
    basis: 'compared',
    issues,
    pages: { added: pages('page_added'), removed: pages('page_removed'), status_changed: pages('status_changed'), redirect_changed: pages('redirect_changed') },
    health: CRAWL_PILLARS.map((key) => pillarHealth(key, sides[key], earlier[key])),
    checks: [...checks.values()]
      .filter((c) => c.new + c.fixed + c.gone_with_page + c.persisting > 0)
      .sort((a, b) => b.new - a.new || b.fixed - a.fixed || b.gone_with_page - a.gone_with_page || (a.name < b.name ? -1 : 1)),
  };
}

/** The summary of a settled crawl; a crawl that was not compared (failed, stopped, or settled before comparisons existed) says so. */
export function changesSummary(crawl: CrawlRow): CrawlChangesSummary {
  const stored = json<StoredChanges | null>(crawl.changes ?? null, null);
  // Summaries stored before `gone_with_page` counted pairs, and had no such count.
  if (stored) {
    return {
      crawl_id: crawl.id,
      ...stored,
      issues: { ...stored.issues, gone_with_page: stored.issues.gone_with_page ?? { error: 0, warning: 0, info: 0 } },
      // Summaries stored before redirect changes were compared: none counted.
      pages: { ...stored.pages, redirect_changed: stored.pages.redirect_changed ?? 0 },
      checks: stored.checks.map((c) => ({ ...c, gone_with_page: c.gone_with_page ?? 0 })),
      // Summaries stored before attributions existed: the movement is not explained.
      health: stored.health.map((p) => ({ ...p, attribution: p.attribution ?? null })),
    };
  }
  return notComparedSummary(crawl.id);
}
