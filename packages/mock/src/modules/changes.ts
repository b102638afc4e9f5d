/**
 * What changed since the previous comparable crawl, the findings events and the prioritised fix
 * list, in memory, with the server's rules (docs/decisions/crawl-changes.md,
 * docs/decisions/regression-signals.md): an issue change is one occurrence, matched on its
 * (check, URL) pair and its details (a pair's only occurrence in both crawls is the same finding
 * whatever its details say); one that went away is fixed, or gone with its page; a page change is an internal URL, matched on its normalised
 * form; kinds come in the order of `CHANGE_KINDS`, each in the order its rows were found.
 */
import { type CrawlChange, type CrawlChangesSummary, type Language, type Recommendation, type Severity } from '@siteaudit/schema';
import {
  attributeScoreChange,
  exactScoreOf,
  notComparedSummary,
  pillarData,
  CHANGE_KINDS,
  CRAWL_PILLARS,
  checkLabel,
  compareRecommendations,
  fixFor,
  isSiteWideCheck,
  normaliseUrl,
  pillarOf,
  recommendationImpact,
  regressionSignal,
  scorePointsWon,
  TARGETED_CHECKS,
  type ChangeKind,
  type CrawlPillar,
  type RegressionThreshold,
} from '@siteaudit/schema/rules';
import type { CampaignRecord, CrawlRecord } from '../db.js';
import { crawlPillarScores, crawlScoreData, crawlScoredPages } from './scores.js';

export type StoredChanges = Omit<CrawlChangesSummary, 'crawl_id'>;
export interface CrawlComparison {
  summary: StoredChanges;
  /** Every change, keyed along the list's order (kind rank, then the row's position). */
  items: { key: number; item: CrawlChange }[];
}

const RANK = Object.fromEntries(CHANGE_KINDS.map((k, i) => [k, i])) as Record<ChangeKind, number>;
/** Room for the positions of one kind in a key: far above any mock crawl's row count. */
const KIND_SPAN = 1_000_000;
const zero = (): Record<Severity, number> => ({ error: 0, warning: 0, info: 0 });
const pageKey = (url: string) => normaliseUrl(url) ?? url;

type Issue = CrawlRecord['issues'][number];

/** The occurrences of each (check, URL) pair, with their positions in the crawl's issues. */
function pairs(crawl: CrawlRecord): Map<string, { index: number; issue: Issue }[]> {
  const out = new Map<string, { index: number; issue: Issue }[]>();
  crawl.issues.forEach((issue, index) => {
    const key = `${issue.name}\u0000${pageKey(issue.url)}`;
    const list = out.get(key) ?? [];
    list.push({ index, issue });
    out.set(key, list);
  });
  return out;
}

/**
 * Whether an occurrence of a pair has its counterpart in the other crawl: the same details; or,
 * for a check about the page itself (not `TARGETED_CHECKS`), the pair's only occurrence in both.
 */
function matched(issue: Issue, own: unknown[], other: { issue: Issue }[] | undefined): boolean {
  if (!other) return false;
  if (other.some((o) => o.issue.details === issue.details)) return true;
  return !TARGETED_CHECKS.includes(issue.name) && own.length === 1 && other.length === 1;
}

function internalPages(crawl: CrawlRecord): Map<string, { index: number; page: CrawlRecord['page_records'][number] }> {
  const out = new Map<string, { index: number; page: CrawlRecord['page_records'][number] }>();
  crawl.page_records.forEach((page, index) => {
    if (page.is_internal) out.set(pageKey(page.url), { index, page });
  });
  return out;
}

/** The previous comparable crawl: same campaign and settings, completed, settled, not blocked, launched before. */
export function previousComparable(crawls: Iterable<CrawlRecord>, crawl: CrawlRecord): CrawlRecord | undefined {
  return [...crawls]
    .filter((c) => c.campaign_id === crawl.campaign_id && c.id !== crawl.id && c.config_hash === crawl.config_hash && c.status === 'completed' && c.settled && !c.blocked && c.seq < crawl.seq)
    .sort((a, b) => b.seq - a.seq)[0];
}

export function compareCrawls(crawl: CrawlRecord, previous: CrawlRecord | undefined): CrawlComparison {
  const scores = crawlPillarScores(crawl);
  if (crawl.blocked || !previous) {
    return {
      summary: {
        previous_crawl_id: null,
        basis: crawl.blocked ? 'blocked' : 'no_previous_crawl',
        issues: { new: zero(), fixed: zero(), gone_with_page: zero(), persisting: zero() },
        pages: { added: 0, removed: 0, status_changed: 0, redirect_changed: 0 },
        health: CRAWL_PILLARS.map((key) => ({ key, score: scores[key], previous_score: null, delta: null, attribution: null })),
        checks: [],
      },
      items: [],
    };
  }
  const items: CrawlComparison['items'] = [];
  const add = (kind: ChangeKind, index: number, item: Omit<CrawlChange, 'kind'>) => items.push({ key: RANK[kind] * KIND_SPAN + index, item: { kind, ...item } as CrawlChange });
  const issueItem = (issue: Issue) => ({ url: issue.url, name: issue.name, severity: issue.severity, category: issue.category, details: issue.details, status_code: null, previous_status_code: null, redirect_url: null, previous_redirect_url: null });

  const now = pairs(crawl);
  const before = pairs(previous);
  const pagesNow = internalPages(crawl);
  const pagesBefore = internalPages(previous);
  // A page is still there when it answers 2xx, is not a redirect (a meta-refresh stub answers 200)
  // and is not noindex; blocked pages answer nothing.
  const noindexNow = new Set(crawl.issues.filter((i) => i.name === 'noindex').map((i) => pageKey(i.url)));
  const stillThere = (url: string) => {
    const page = pagesNow.get(pageKey(url))?.page;
    return !!page && page.status_code !== null && page.status_code >= 200 && page.status_code < 300 && !page.redirect_url && !noindexNow.has(pageKey(url));
  };
  const goneWithPage = (issue: Issue) => !isSiteWideCheck(issue.name) && pagesBefore.has(pageKey(issue.url)) && !stillThere(issue.url);
  const checks = new Map<string, CrawlChangesSummary['checks'][number]>();
  const count = (issue: Issue, field: 'new' | 'fixed' | 'gone_with_page' | 'persisting') => {
    const entry = checks.get(issue.name) ?? { name: issue.name, severity: issue.severity, category: issue.category, new: 0, fixed: 0, gone_with_page: 0, persisting: 0 };
    entry[field]++;
    checks.set(issue.name, entry);
  };
  for (const [key, list] of now) {
    for (const { index, issue } of list) {
      const kind = matched(issue, list, before.get(key)) ? 'issue_persisting' : 'issue_new';
      add(kind, index, issueItem(issue));
      count(issue, kind === 'issue_new' ? 'new' : 'persisting');
    }
  }
  for (const [key, list] of before) {
    for (const { index, issue } of list) {
      if (matched(issue, list, now.get(key))) continue;
      const gone = goneWithPage(issue);
      add(gone ? 'issue_gone_with_page' : 'issue_fixed', index, issueItem(issue));
      count(issue, gone ? 'gone_with_page' : 'fixed');
    }
  }

  type Page = CrawlRecord['page_records'][number];
  const target = (page: Page | undefined) => page?.redirect_url ?? null;
  const pageItem = (url: string, now: Page | undefined, before: Page | undefined) => ({
    url,
    name: null,
    severity: null,
    category: null,
    details: null,
    status_code: now ? now.status_code : null,
    previous_status_code: before ? before.status_code : null,
    redirect_url: target(now),
    previous_redirect_url: target(before),
  });
  // A page whose status changed is that alone; with the same status, another redirect target
  // (a page turned into a meta-refresh stub, a redirect pointing elsewhere, a page again) is a redirect change.
  for (const [key, { index, page }] of pagesNow) {
    const old = pagesBefore.get(key);
    if (!old) add('page_added', index, pageItem(page.url, page, undefined));
    else if (old.page.status_code !== page.status_code) add('status_changed', index, pageItem(page.url, page, old.page));
    else if (target(old.page) !== target(page)) add('redirect_changed', index, pageItem(page.url, page, old.page));
  }
  for (const [key, { index, page }] of pagesBefore) if (!pagesNow.has(key)) add('page_removed', index, pageItem(page.url, undefined, page));
  items.sort((a, b) => a.key - b.key);

  const issues = { new: zero(), fixed: zero(), gone_with_page: zero(), persisting: zero() };
  for (const c of checks.values()) {
    issues.new[c.severity] += c.new;
    issues.fixed[c.severity] += c.fixed;
    issues.gone_with_page[c.severity] += c.gone_with_page;
    issues.persisting[c.severity] += c.persisting;
  }
  const kinds = (kind: ChangeKind) => items.filter((i) => i.item.kind === kind).length;
  const earlier = crawlPillarScores(previous);
  // Why each pillar moved, from both crawls' checks, as the server attributes it.
  const sides = (c: CrawlRecord) => pillarData(crawlScoreData(c), { aiChecked: false, accessibilityChecked: false });
  const [dataNow, dataBefore] = [sides(crawl), sides(previous)];
  const attribution = (key: CrawlPillar) => {
    const [now, before] = [dataNow[key], dataBefore[key]];
    return now && before ? attributeScoreChange({ exact: exactScoreOf(before), data: before }, { exact: exactScoreOf(now), data: now }) : null;
  };
  return {
    summary: {
      previous_crawl_id: previous.id,
      basis: 'compared',
      issues,
      pages: { added: kinds('page_added'), removed: kinds('page_removed'), status_changed: kinds('status_changed'), redirect_changed: kinds('redirect_changed') },
      health: CRAWL_PILLARS.map((key) => ({
        key,
        score: scores[key],
        previous_score: earlier[key],
        delta: scores[key] === null || earlier[key] === null ? null : scores[key]! - earlier[key]!,
        attribution: scores[key] === null || earlier[key] === null ? null : attribution(key),
      })),
      checks: [...checks.values()].sort((a, b) => b.new - a.new || b.fixed - a.fixed || b.gone_with_page - a.gone_with_page || (a.name < b.name ? -1 : 1)),
    },
    items,
  };
}

/** The summary of a settled crawl: not compared when it did not complete. */
export function changesSummaryOf(crawl: CrawlRecord): CrawlChangesSummary {
  if (crawl.comparison) return { crawl_id: crawl.id, ...crawl.comparison.summary };
  return notComparedSummary(crawl.id);
}

/** The prioritised fix list: errors, warnings, notices, then pages affected, then score points won. */
export function recommendationsOf(crawl: CrawlRecord, language: Language): Recommendation[] {
  const groups = new Map<string, { issue: CrawlRecord['issues'][number]; occurrences: number; urls: Set<string> }>();
  for (const issue of crawl.issues) {
    const group = groups.get(issue.name) ?? { issue, occurrences: 0, urls: new Set<string>() };
    group.occurrences++;
    group.urls.add(pageKey(issue.url));
    groups.set(issue.name, group);
  }
  const scoredPages = crawlScoredPages(crawl);
  const scored = [...groups.values()].map(({ issue, urls }) => ({ name: issue.name, severity: issue.severity, category: issue.category, pages: urls.size }));
  return [...groups.values()]
    .map(({ issue, occurrences, urls }) => ({
      name: issue.name,
      label: checkLabel(issue.name, language),
      severity: issue.severity,
      category: issue.category,
      pillar: pillarOf(issue.category),
      pages: urls.size,
      occurrences,
      impact: recommendationImpact({ name: issue.name, severity: issue.severity, category: issue.category, pages: urls.size, scoredPages: scoredPages.pages }),
      score_points: scorePointsWon({ name: issue.name, severity: issue.severity, category: issue.category, pages: urls.size }, scored, scoredPages),
      advice: fixFor(issue.name, issue.category, language),
    }))
    .sort(compareRecommendations);
}

/** The findings events a settled crawl sends (type only: the mock's deliveries keep no body), as the server decides them. */
export function findingsEvents(crawl: CrawlRecord, campaign: CampaignRecord | undefined): ('signal.detected' | 'recommendations.ready')[] {
  if (!campaign || !campaign.write_only.notify) return [];
  const summary = changesSummaryOf(crawl);
  const technique = summary.health.find((p) => p.key === 'technique');
  const signal =
    summary.basis === 'compared' &&
    regressionSignal((campaign.write_only.regression_threshold ?? 'off') as RegressionThreshold, {
      newIssues: summary.issues.new,
      health: { score: technique?.score ?? null, previous: technique?.previous_score ?? null },
    });
  return signal ? ['signal.detected', 'recommendations.ready'] : ['recommendations.ready'];
}
