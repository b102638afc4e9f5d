/**
 * Crawls: launched as `queued`, then moved by `advance()` through `running` (stage `fetching`)
 * to `completed` with `settled: false` (post-processing), then `settled: true`, when reports
 * may be read (docs/decisions/crawl-lifecycle.md). Reports before that answer 409 `crawl.not_settled`.
 */
import { type Crawl, type IssueOccurrence, type IssueSummary, type Language, type OperationsOf, type PageSpeedResult } from '@siteaudit/schema';
import {
  CRAWL_STEPS,
  QUEUED_CRAWL,
  bySummaryOrder,
  crawlSettingsText,
  checkLabel,
  crawlProgressPercent,
  pagesPerSecond,
  localiseIssueDetails,
  checkScope,
  MAX_SECTION_PATTERNS,
  mayBeTemplate,
  sectionOf,
  templatePattern,
  topCause,
  causeDetails,
  isHtmlPage,
  type CheckName,
  normaliseUrl,
  pagespeedSkipReason,
  settledPageSpeed,
  refusalDetails,
} from '@siteaudit/schema/rules';
import { assertWithinPlan } from '@siteaudit/schema/pipeline';
import { data, fail, type BusinessMap, type Caller, type MockEnv } from '../context.js';
import type { CampaignRecord, CrawlRecord, Job, MockDb } from '../db.js';
import { hashHex } from '../random.js';
import { assertUnlocked, basePath, iso, isoMonth, newestFirst, nextSeq, ownedCampaign, ownedCrawl, ownedProject, SECOND } from '../store.js';
import { compareIssues, generateFindings } from './generate.js';
import { emitEvent } from './webhooks.js';
import { changesSummaryOf, compareCrawls, findingsEvents, previousComparable, recommendationsOf } from './changes.js';

/** Time the mock takes for each phase; `advance()` with no argument runs them all. */
export const CRAWL_TIMING = { queued: 1 * SECOND, fetching: 4 * SECOND, postProcessing: 2 * SECOND };

type Step = CrawlRecord['steps'][number];

export function serializeCrawl(record: CrawlRecord, now: Date): Crawl {
  let crawled = record.pages.crawled;
  if (record.status === 'running' && record.started_at) {
    // Pages appear gradually while fetching, as a poller would see them on the server.
    const progress = Math.min(0.99, Math.max(0, (now.getTime() - Date.parse(record.started_at)) / CRAWL_TIMING.fetching));
    crawled = Math.floor(progress * record.page_records.length);
  }
  const current = record.steps.findIndex((s) => s.state === 'pending' || s.state === 'running');
  return {
    id: record.id,
    project_id: record.project_id,
    campaign_id: record.campaign_id,
    status: record.status,
    stage: record.stage,
    active: record.active,
    stage_plan: {
      current_step: current === -1 ? record.steps.length : current + 1,
      step_count: record.steps.length,
      settled: record.settled,
      steps: record.steps.map((s) => ({ ...s })),
    },
    pages: { ...record.pages, crawled, per_second: pagesPerSecond(crawled, record.started_at, record.status === 'running' ? null : record.finished_at, now.getTime()) },
    issue_counts: { ...record.issue_counts },
    truncated: record.truncated,
    blocked: record.blocked,
    comparable: record.comparable,
    blocked_reason: record.blocked_reason,
    error: record.error,
    trigger: record.trigger,
    started_at: record.started_at,
    finished_at: record.finished_at,
    created_at: record.created_at,
  };
}

/** Progress of a running crawl against its URL budget, for the operations list (as the server). */
export function crawlProgress(record: CrawlRecord, now: Date): { progress: number; crawled: number } {
  const { crawled, budget } = serializeCrawl(record, now).pages;
  return { progress: crawlProgressPercent(crawled, budget), crawled };
}

/** Stops a crawl (campaign deletion stops its running crawl first): final and settled. */
export function stopCrawl(crawl: CrawlRecord, now: Date): void {
  Object.assign(crawl, { status: 'stopped', stage: 'done', active: false, settled: true, finished_at: crawl.finished_at ?? iso(now) });
  for (const step of crawl.steps) if (step.state === 'pending' || step.state === 'running') Object.assign(step, { state: 'skipped', skip_reason: 'stopped' });
}

/** The campaign settings a crawl runs with (`crawlSettingsText`, shared with the server). */
function configHash(campaign: CampaignRecord): string {
  return hashHex(crawlSettingsText({ ...campaign, ...campaign.write_only }));
}

/** Creates a crawl of a campaign as `queued`, at `now`; the caller has checked the rules. */
export function insertCrawl(env: MockEnv, db: MockDb, campaignId: string, now: Date): CrawlRecord {
  const campaign = db.campaigns.get(campaignId)!;
  const steps: Step[] = CRAWL_STEPS.map((stage) => ({ stage, state: 'pending', skip_reason: null }));
  const record: CrawlRecord = {
    seq: nextSeq(db),
    id: env.random.uuid(),
    team_id: campaign.team_id,
    project_id: campaign.project_id,
    campaign_id: campaign.id,
    ...QUEUED_CRAWL,
    steps,
    config_hash: configHash(campaign),
    pages: { crawled: 0, discovered: 0, budget: campaign.max_urls, per_second: null },
    issue_counts: { error: 0, warning: 0, info: 0 },
    truncated: false,
    blocked: false,
    comparable: false,
    blocked_reason: null,
    error: null,
    trigger: 'manual',
    started_at: null,
    finished_at: null,
    created_at: iso(now),
    page_records: [],
    issues: [],
    protection_occurrences: 0,
    pagespeed_requested: campaign.pagespeed,
  };
  db.crawls.set(record.id, record);
  db.launches.push({ team_id: record.team_id, at: record.created_at });
  env.schedule('crawl.start', record.id, now.getTime() + CRAWL_TIMING.queued);
  return record;
}

/** Moves a crawl one phase forward; `job.at` is the instant the phase ends. */
export function runCrawlJob(env: MockEnv, job: Job): void {
  const db = env.db;
  const crawl = db.crawls.get(job.id);
  const campaign = crawl && db.campaigns.get(crawl.campaign_id);
  if (!crawl || !campaign) return;
  const step = (stage: Step['stage']) => crawl.steps.find((s) => s.stage === stage)!;
  const at = iso(job.at);
  if (job.kind === 'crawl.start' && crawl.status === 'queued') {
    const findings = generateFindings(crawl.id, campaign);
    Object.assign(crawl, {
      status: 'running',
      stage: 'fetching',
      started_at: at,
      page_records: findings.pages,
      issues: findings.issues,
      protection_occurrences: findings.protection,
      truncated: findings.truncated,
    });
    crawl.pages.discovered = findings.discovered;
    step('fetching').state = 'running';
    env.schedule('crawl.fetched', crawl.id, job.at + CRAWL_TIMING.fetching);
  } else if (job.kind === 'crawl.fetched' && crawl.status === 'running') {
    // `completed` comes before post-processing ends (docs/decisions/crawl-lifecycle.md): active false, settled still false.
    const counts = { error: 0, warning: 0, info: 0 };
    for (const issue of crawl.issues) counts[issue.severity]++;
    Object.assign(crawl, { status: 'completed', active: false, stage: 'analysing', finished_at: at, issue_counts: counts });
    crawl.pages.crawled = crawl.page_records.length;
    step('fetching').state = 'done';
    step('analysing').state = 'running';
    env.schedule('crawl.settle', crawl.id, job.at + CRAWL_TIMING.postProcessing);
  } else if (job.kind === 'crawl.settle' && crawl.status === 'completed' && !crawl.settled) {
    step('analysing').state = 'done';
    // No PageSpeed provider in the mock: the step is skipped, honestly, never invented.
    Object.assign(step('pagespeed'), { state: 'skipped', skip_reason: pagespeedSkipReason(crawl.pagespeed_requested) });
    step('scoring').state = 'done';
    step('comparing').state = 'done';
    const previous = [...db.crawls.values()]
      .filter((c) => c.campaign_id === crawl.campaign_id && c.id !== crawl.id && c.status === 'completed' && c.settled)
      .sort((a, b) => b.seq - a.seq)[0];
    crawl.comparison = compareCrawls(crawl, previousComparable(db.crawls.values(), crawl));
    Object.assign(crawl, { settled: true, stage: 'done', comparable: previous ? previous.config_hash === crawl.config_hash : false });
    // As the server: the project's latest crawl and the crawl.completed event wait for settled.
    const project = db.projects.get(crawl.project_id);
    if (project && (!project.latest_completed_crawl || project.latest_completed_crawl.finished_at <= crawl.finished_at!)) {
      project.latest_completed_crawl = { id: crawl.id, finished_at: crawl.finished_at! };
    }
    emitEvent(env, crawl.team_id, 'crawl.completed', job.at);
    for (const type of findingsEvents(crawl, campaign)) emitEvent(env, crawl.team_id, type, job.at);
  }
}

/** A crawl whose reports may be read: settled, else 409 `crawl.not_settled`. */
function settledCrawl(db: MockDb, id: string, caller: Caller): CrawlRecord {
  const crawl = ownedCrawl(db, id, caller);
  if (!crawl.settled) fail('crawl.not_settled', { detail: refusalDetails.crawlNotSettled(crawl.status) });
  return crawl;
}

/**
 * The key by-URL reads match on, as the server's (`urlHash`): the crawler's normalised URL, or the
 * text as sent when it cannot be normalised (a relative or non-http URL), which matches no page.
 */
function pageKey(url: string): string {
  return normaliseUrl(url) ?? url;
}

function pageStatusClass(status: number | null): string {
  return status === null ? 'unreachable' : `${Math.floor(status / 100)}xx`;
}

/** An occurrence as answered: its details in the caller's language, as the server answers them. */
function inLanguage(issue: IssueOccurrence, language: Language): IssueOccurrence {
  return { ...issue, details: localiseIssueDetails(issue.details, language) };
}

function withoutInternals<T extends { issues: unknown; protection: unknown; resources: unknown }>(page: T) {
  const { issues: _issues, protection: _protection, resources: _resources, ...rest } = page;
  return rest;
}

export const crawlOperations: Pick<BusinessMap, OperationsOf<'crawls'>> = {
  launchCrawl({ env, db, caller, params, now }) {
    const campaign = ownedCampaign(db, params.campaign, caller);
    assertUnlocked(db.projects.get(campaign.project_id)!);
    const running = [...db.crawls.values()].find((c) => c.campaign_id === campaign.id && c.active);
    if (running) fail('crawl.already_running', { detail: refusalDetails.crawlAlreadyRunning(running.id) });
    const month = isoMonth(now);
    const used = db.launches.filter((l) => l.team_id === caller.team.id && isoMonth(Date.parse(l.at)) === month).length;
    assertWithinPlan(env.plans, caller.plan, 'crawls.monthly', used + 1, 'plan_limit.crawls.monthly', refusalDetails.crawlsMonthly(used, caller.plan.limits['crawls.monthly']));
    const crawl = insertCrawl(env, db, campaign.id, now);
    return data(serializeCrawl(crawl, now), { status: 202, headers: { Location: `${basePath(env)}/v1/crawls/${crawl.id}` } });
  },

  listCrawls({ db, caller, params, now }) {
    const project = ownedProject(db, params.project, caller);
    const crawls = [...db.crawls.values()].filter((c) => c.project_id === project.id);
    return { type: 'list', items: newestFirst(crawls, (c) => serializeCrawl(c, now)) };
  },

  getCrawl({ db, caller, params, now }) {
    return data(serializeCrawl(ownedCrawl(db, params.crawl, caller), now));
  },

  listCrawlIssues({ db, caller, params, query, language }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    const url = query.url === undefined ? undefined : pageKey(query.url);
    const items = crawl.issues
      .map((issue, index) => ({ key: index, item: issue }))
      .filter(({ item }) => (!query.severity || item.severity === query.severity) && (!query.category || item.category === query.category) && (!query.name || item.name === query.name) && (url === undefined || pageKey(item.url) === url))
      .map(({ key, item }) => ({ key, item: inLanguage(item, language) }));
    return { type: 'list', items };
  },

  getCrawlIssueSummary({ db, caller, params, language }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    const groups = new Map<string, IssueSummary['groups'][number] & { urls: Set<string>; occurrences_: IssueOccurrence[] }>();
    for (const issue of crawl.issues) {
      const group = groups.get(issue.name) ?? { name: issue.name, label: checkLabel(issue.name, language), severity: issue.severity, category: issue.category, occurrences: 0, pages: 0, templates: [], urls: new Set(), occurrences_: [] };
      group.occurrences++;
      group.urls.add(issue.url);
      group.occurrences_.push(issue);
      groups.set(issue.name, group);
    }
    // HTML pages as the server counts them (internal, 2xx, HTML; the server also leaves out
    // meta-refresh stubs, which the mock never generates), in all and per section: the template patterns' denominators.
    const html = crawl.page_records.filter((p) => isHtmlPage(p));
    const htmlUrls = new Set(html.map((p) => p.url));
    const sections = new Map<string, number>();
    for (const p of html) sections.set(sectionOf(p.url) ?? '/', (sections.get(sectionOf(p.url) ?? '/') ?? 0) + 1);
    const list = [...groups.values()]
      .map(({ urls, occurrences_, ...g }) => {
        const scope = checkScope(g.name as CheckName).scope;
        const pattern = (issues: IssueOccurrence[], pages: number, section: string | null) => {
          const byDetails = new Map<string, Set<string>>();
          for (const i of issues) byDetails.set(i.details, (byDetails.get(i.details) ?? new Set()).add(i.url));
          const top = topCause(scope, [...byDetails].map(([details, u]) => ({ details, pages: u.size })), new Set(issues.map((i) => i.url)).size);
          const examples = issues.filter((i) => top?.variants.includes(i.details)).map((i) => i.url);
          const found = top && templatePattern(pages, top, [...new Set(examples)], section);
          return found && { ...found, details: causeDetails(top, (d) => localiseIssueDetails(d, language)) };
        };
        // Only occurrences on those HTML pages make a template (a 404 URL is no page of it).
        const onPages = occurrences_.filter((i) => htmlUrls.has(i.url));
        const site = mayBeTemplate(html.length, urls.size) ? pattern(onPages, html.length, null) : null;
        const templates = site
          ? [site]
          : [...sections]
              .map(([section, n]) => pattern(onPages.filter((i) => sectionOf(i.url) === section), n, section))
              .filter((p): p is NonNullable<typeof p> => p !== null)
              .sort((a, b) => b.pages - a.pages)
              .slice(0, MAX_SECTION_PATTERNS);
        return { ...g, pages: urls.size, templates };
      })
      .sort(bySummaryOrder);
    // Totals are the sum of the groups, by construction.
    const totals = { error: 0, warning: 0, info: 0 };
    for (const g of list) totals[g.severity] += g.occurrences;
    const summary: IssueSummary = { crawl_id: crawl.id, totals, protection_occurrences: crawl.protection_occurrences, groups: list };
    return data(summary);
  },

  listCrawlPages({ db, caller, params, query }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    const items = crawl.page_records
      .map((page, index) => ({ key: index, page }))
      .filter(({ page }) => (!query.status || pageStatusClass(page.status_code) === query.status) && (query.internal === undefined || page.is_internal === query.internal))
      .map(({ key, page }) => ({ key, item: withoutInternals(page) }));
    return { type: 'list', items };
  },

  getCrawlPageByUrl({ db, caller, params, query, language }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    const wanted = pageKey(query.url);
    const page = crawl.page_records.find((p) => pageKey(p.url) === wanted);
    if (!page) fail('not_found');
    return data({ ...withoutInternals(page), issues: [...page.issues].sort(compareIssues).map((i) => inLanguage(i, language)), resources: page.resources });
  },

  /**
   * The mock site's link structure, simplified (it does not crawl): its home page links to every
   * other internal page, its title as anchor text, and every internal HTML page links home ("Home").
   */
  listCrawlPageInlinks({ db, caller, params, query }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    const wanted = pageKey(query.url);
    const target = crawl.page_records.find((p) => pageKey(p.url) === wanted);
    if (!target) fail('not_found');
    const html = (p: (typeof crawl.page_records)[number]) => p.is_internal && p.status_code !== null && p.status_code >= 200 && p.status_code < 300;
    const home = crawl.page_records.find((p) => p.depth === 0 && html(p));
    const sources =
      target === home
        ? crawl.page_records.filter((p) => p !== home && html(p)).map((p) => ({ url: p.url, anchor_text: 'Home', nofollow: false }))
        : home && target.is_internal
          ? [{ url: home.url, anchor_text: target.title ?? new URL(target.url).pathname, nofollow: false }]
          : [];
    return { type: 'list', items: sources.map((item, key) => ({ key, item })) };
  },

  listCrawlChanges({ db, caller, params, query, language }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    const items = (crawl.comparison?.items ?? [])
      .filter(({ item }) => (!query.kind || item.kind === query.kind) && (!query.severity || item.severity === query.severity))
      .map(({ key, item }) => ({ key, item: { ...item, details: item.details === null ? null : localiseIssueDetails(item.details, language) } }));
    return { type: 'list', items };
  },

  getCrawlChangesSummary({ db, caller, params }) {
    return data(changesSummaryOf(settledCrawl(db, params.crawl, caller)));
  },

  listCrawlRecommendations({ db, caller, params, language }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    return { type: 'list', items: recommendationsOf(crawl, language).map((item, key) => ({ key, item })) };
  },

  getCrawlPagespeed({ db, caller, params }) {
    const crawl = settledCrawl(db, params.crawl, caller);
    // No provider in the mock: say so (null strategies, never 0), like a server without one; a
    // crawl that ended first says so, as the server's does.
    const result: PageSpeedResult = { crawl_id: crawl.id, ...settledPageSpeed({ status: crawl.status, pagespeedRequested: crawl.pagespeed_requested }, null) };
    return data(result);
  },
};
