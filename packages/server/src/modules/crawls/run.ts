/**
 * The crawl job: fetch and audit the site with the crawler (with a headless Chromium when the
 * campaign asks for JavaScript rendering or accessibility checks), write pages and issues in
 * batches, mark the crawl completed, then post-process (aggregation, PageSpeed, scoring,
 * comparison) until it is settled and `crawl.completed` is published. A run interrupted by a
 * restart starts the fetch again from scratch; one that keeps failing ends `failed` with an `error`.
 * Every write goes through the job's lease (jobs/runner.ts): a run that lost its job to another
 * process writes nothing more.
 */
import { createHash } from 'node:crypto';
import { PatternError, unmeasuredPageSpeed } from '@siteaudit/schema';
import { CHECKS, THRESHOLDS, crawlSite, normaliseUrl, resolveCrawlConfig, type IssueRecord, type PageRecord } from '../../crawler/index.js';
import { LeaseLostError, type JobLease } from '../../jobs/runner.js';
import type { PageSpeedProvider } from '../../providers/pagespeed.js';
import { createRenderer, type Renderer, type RendererOptions } from '../../rendering/renderer.js';
import type { Services } from '../../services.js';
import { bool, json } from '../../store/database.js';
import type { CampaignRow } from '../campaigns/campaign-row.js';
import type { CrawlControl } from './control.js';
import { crawlError, crawlErrorFor } from './crawl-errors.js';
import { SEVERITY_RANK, toCrawl, type CrawlRow, type StagePlanStep, type Step } from './crawl-row.js';
import { crawlLog, crawlOutcome } from './crawl-log.js';
import { finishFailed, finishStopped } from './finish.js';
import { healthWithPageSpeed, measureSample, selectSample, slowPages, summarise, type StoredPageSpeed } from './pagespeed.js';

/** What the crawl job uses beyond the services: the PageSpeed provider and the browser. */
export interface CrawlRuntime {
  /** `providers.pagespeed` of the server; null skips the PageSpeed step with `no_provider`. */
  pagespeed?: PageSpeedProvider | null;
  /** Builds the crawl's browser; default createRenderer (src/rendering). */
  renderer?: (options: RendererOptions) => Renderer;
}

// Keyed by the server's services, so several servers in one process keep their own settings.
const runtimes = new WeakMap<Services, CrawlRuntime>();

/** Called by createSiteAuditServer with its options, before jobs start. */
export function configureCrawlRuntime(services: Services, runtime: CrawlRuntime): void {
  runtimes.set(services, runtime);
}

/** The key under which pages and issues are looked up by URL. */
export function urlHash(url: string): string {
  return createHash('sha256').update(normaliseUrl(url) ?? url).digest('hex');
}

const PROGRESS_EVERY_MS = 1000;

/** Rows per INSERT: under SQLite's 999-variable cap for the widest table. */
const PAGE_CHUNK = 40;
const ISSUE_CHUNK = 120;

function setStep(plan: string, stage: Step, state: StagePlanStep['state'], skipReason: string | null = null): string {
  const steps = json<StagePlanStep[]>(plan, []);
  return JSON.stringify(steps.map((s) => (s.stage === stage ? { ...s, state, skip_reason: skipReason } : s)));
}

class StoppedError extends Error {}

export function registerCrawlJob(services: Services, control: CrawlControl): void {
  services.jobs.register<{ crawlId: string }>('crawl.run', {
    // A crashed process's crawl is taken over within half a minute; heartbeats every 5 s.
    leaseMs: 30_000,
    maxAttempts: 2,
    async run({ crawlId }, ctx) {
      const row = (await services.knex('crawls').where({ id: crawlId }).first()) as CrawlRow | undefined;
      if (!row || bool(row.settled)) return;
      if (bool(row.stop_requested)) return finishStopped(services, crawlId, ctx.lease);
      if (row.status !== 'completed') {
        const controller = new AbortController();
        const onShutdown = () => controller.abort();
        ctx.signal.addEventListener('abort', onShutdown);
        const done = fetchStage(services, row, controller.signal, ctx.lease);
        control.track(crawlId, done.then(() => undefined, () => undefined), controller);
        try {
          await done;
        } catch (error) {
          if (error instanceof StoppedError) return finishStopped(services, crawlId, ctx.lease);
          // A stored pattern the campaign rules now refuse: another attempt would fail alike.
          if (error instanceof PatternError) return finishFailed(services, crawlId, crawlError('crawl.invalid_pattern', error.message), ctx.lease);
          throw error;
        } finally {
          ctx.signal.removeEventListener('abort', onShutdown);
        }
        if (ctx.signal.aborted) throw new Error('interrupted by shutdown');
      }
      await postProcess(services, crawlId, ctx.signal, ctx.lease);
      if (ctx.signal.aborted) throw new Error('interrupted by shutdown');
    },
    async onFailed({ crawlId }, _message, cause) {
      await finishFailed(services, crawlId, crawlErrorFor(cause));
    },
  });
}

async function fetchStage(services: Services, row: CrawlRow, signal: AbortSignal, lease: JobLease): Promise<void> {
  const { knex } = services;
  const crawlId = row.id;
  const startedAt = row.started_at ?? services.clock().toISOString();
  await lease.write(async (trx) => {
    // A resumed run starts over: what an interrupted run wrote is discarded.
    await trx('crawl_pages').where({ crawl_id: crawlId }).delete();
    await trx('crawl_issues').where({ crawl_id: crawlId }).delete();
    await trx('crawls')
      .where({ id: crawlId })
      .update({ status: 'running', stage: 'fetching', started_at: startedAt, stage_plan: setStep(row.stage_plan, 'fetching', 'running') });
  });
  const log = crawlLog(services);
  log.info({ crawl: crawlId, campaign: row.campaign_id, team: row.team_id, trigger: row.trigger }, row.started_at ? 'crawl resumed' : 'crawl started');

  const campaign = json<CampaignRow>(row.config, {} as CampaignRow);
  const secret = (value: string | null, field: string) => (value ? services.secrets.decrypt(value, `${row.campaign_id}:${field}`) : null);
  const config = resolveCrawlConfig(
    {
      ...campaign,
      check_external_links: bool(campaign.check_external_links),
      check_ai_reachability: bool(campaign.check_ai_reachability),
      javascript_rendering: bool(campaign.javascript_rendering),
      check_accessibility: bool(campaign.check_accessibility),
      check_accessibility_rendered: bool(campaign.check_accessibility_rendered),
      http_user: secret(campaign.http_user_enc, 'http_user'),
      http_password: secret(campaign.http_password_enc, 'http_password'),
    },
    { allowPrivateAddresses: services.network.allowPrivateAddresses },
  );

  let pageSeq = 0;
  let issueSeq = 0;
  let lastProgress = 0;
  let stopCheck: Promise<void> = Promise.resolve();
  const sink = {
    async pages(batch: PageRecord[]) {
      const rows = batch.map((p) => ({
        crawl_id: crawlId,
        seq: pageSeq++,
        url: p.url,
        url_hash: urlHash(p.url),
        status_code: p.status_code,
        error_type: p.error_type,
        content_type: p.content_type,
        is_internal: p.is_internal,
        depth: p.depth,
        title: p.title,
        meta_description: p.meta_description,
        h1: p.h1,
        word_count: p.word_count,
        canonical_url: p.canonical_url,
        response_time_ms: p.response_time_ms,
        size_bytes: p.size_bytes,
        internal_links: p.internal_links,
        external_links: p.external_links,
        images: p.images,
        images_without_alt: p.images_without_alt,
      }));
      // One URL is stored once: a row already there (the unique index) is kept, never doubled.
      await lease.write(async (trx) => {
        for (let i = 0; i < rows.length; i += PAGE_CHUNK) await trx('crawl_pages').insert(rows.slice(i, i + PAGE_CHUNK)).onConflict(['crawl_id', 'url_hash']).ignore();
      });
      services.metrics?.pagesFetched(rows.length);
    },
    async issues(batch: IssueRecord[]) {
      const rows = batch.map((issue) => ({
        crawl_id: crawlId,
        seq: issueSeq++,
        name: issue.name,
        severity: issue.severity,
        severity_rank: SEVERITY_RANK[issue.severity],
        category: issue.category,
        url: issue.url,
        url_hash: urlHash(issue.url),
        details: issue.details,
      }));
      await lease.write(async (trx) => {
        for (let i = 0; i < rows.length; i += ISSUE_CHUNK) await trx('crawl_issues').insert(rows.slice(i, i + ISSUE_CHUNK));
      });
    },
    progress(p: { crawled: number; discovered: number }) {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      // Progress is advisory: a failed write must not fail the crawl. The same write tells
      // whether another process asked for a stop.
      stopCheck = lease
        .write((trx) => trx('crawls').where({ id: crawlId }).update({ pages_crawled: p.crawled, pages_discovered: p.discovered }))
        .then(() => knex('crawls').where({ id: crawlId }).first('stop_requested'))
        .then((r) => {
          if (r && bool(r.stop_requested)) stopper.abort();
        })
        .catch((err) => {
          // A run that lost its job stops at its next fenced write; nothing to report twice.
          if (!(err instanceof LeaseLostError)) log.warn({ err, crawl: crawlId }, 'crawl progress not written');
        });
    },
  };
  const stopper = new AbortController();
  const needsBrowser = config.javascriptRendering || config.checkAccessibility || config.checkAccessibilityRendered;
  const renderer = needsBrowser
    ? (runtimes.get(services)?.renderer ?? createRenderer)({
        allowPrivateAddresses: config.allowPrivateAddresses,
        userAgent: config.userAgent,
        timeoutMs: config.timeoutMs,
        httpAuth: config.httpAuth ? { origin: new URL(config.startUrl).origin, ...config.httpAuth } : null,
      })
    : undefined;
  let outcome;
  try {
    outcome = await crawlSite(config, sink, { signal: AbortSignal.any([signal, stopper.signal]), renderer });
  } finally {
    await renderer?.close();
  }
  await stopCheck;
  if (outcome.aborted) {
    const current = await knex('crawls').where({ id: crawlId }).first('stop_requested');
    if (current && bool(current.stop_requested)) throw new StoppedError();
    throw new Error('interrupted');
  }

  await lease.write(async (trx) => {
    const fresh = (await trx('crawls').where({ id: crawlId }).first()) as CrawlRow;
    await trx('crawls')
    .where({ id: crawlId })
    .update({
      // The spec: completed is set before post-processing ends; reports wait for `settled`.
      status: 'completed',
      stage: 'analysing',
      active: false,
      pages_crawled: outcome.crawled,
      pages_discovered: outcome.discovered,
      truncated: outcome.truncated,
      blocked: outcome.blocked,
      blocked_reason: outcome.blockedReason,
      protection_occurrences: outcome.protectionOccurrences,
      // Unrounded: the scoring step may adjust it (PageSpeed); readers round.
      health_score: outcome.healthScoreExact,
      finished_at: services.clock().toISOString(),
      stage_plan: setStep(fresh.stage_plan, 'fetching', 'done'),
    });
  });
}

/** Issue counts from the stored occurrences, so they always match the reports. */
async function countIssues(knex: Services['knex'], crawlId: string) {
  const counts = (await knex('crawl_issues').where({ crawl_id: crawlId }).select('severity').count({ count: '*' }).groupBy('severity')) as { severity: string; count: string | number }[];
  const by = (s: string) => Number(counts.find((c) => c.severity === s)?.count ?? 0);
  return { issues_error: by('error'), issues_warning: by('warning'), issues_info: by('info') };
}

function stepState(plan: string, stage: Step): StagePlanStep['state'] | undefined {
  return json<StagePlanStep[]>(plan, []).find((s) => s.stage === stage)?.state;
}

const settledStep = (plan: string, stage: Step) => ['done', 'skipped'].includes(stepState(plan, stage) ?? '');

/**
 * Aggregation, PageSpeed, scoring and comparison; then settled, and crawl.completed published.
 * A step already done (a run resumed after a restart) is not done again.
 */
async function postProcess(services: Services, crawlId: string, signal: AbortSignal, lease: JobLease): Promise<void> {
  const { knex } = services;
  let row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;
  let plan = row.stage_plan;

  plan = setStep(plan, 'analysing', 'running');
  const counts = await countIssues(knex, crawlId);
  plan = setStep(plan, 'analysing', 'done');
  await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ ...counts, stage: 'pagespeed', stage_plan: plan }));

  if (!settledStep(plan, 'pagespeed')) plan = await pagespeedStep(services, row, plan, signal, lease);
  if (signal.aborted) return;

  if (!settledStep(plan, 'scoring')) {
    row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;
    // The crawler scored the findings it made; PageSpeed joins afterwards (docs/decisions/scorecard.md).
    const pagespeed = json<StoredPageSpeed | null>(row.pagespeed, null);
    let health = row.health_score === null ? null : Number(row.health_score);
    if (health !== null && pagespeed?.status === 'measured') {
      const [{ slow }] = await knex('crawl_issues').where({ crawl_id: crawlId, name: 'lighthouse_mobile_slow' }).countDistinct({ slow: 'url_hash' });
      const [{ pages }] = await knex('crawl_pages')
        .where({ crawl_id: crawlId, is_internal: true })
        .andWhere((q) => q.whereNull('error_type').orWhereNot('error_type', 'protection'))
        .count({ pages: '*' });
      health = healthWithPageSpeed(health, Number(pages), Number(slow), pagespeed.combined);
    }
    plan = setStep(plan, 'scoring', 'done');
    // One write for the score and the step: a resumed run never applies the adjustment twice.
    const scored = plan;
    await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ health_score: health, stage: 'comparing', stage_plan: scored }));
  } else {
    await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ stage: 'comparing' }));
  }

  const previous = await knex('crawls')
    .where({ campaign_id: row.campaign_id, status: 'completed', settled: true })
    .whereNot({ id: crawlId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('config_hash');
  plan = setStep(plan, 'comparing', 'done');
  row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;

  await lease.write(async (trx) => {
    // The update that settles the crawl publishes its event: only one run can find it unsettled.
    const settled = await trx('crawls')
      .where({ id: crawlId, settled: false })
      .update({ comparable: previous ? previous.config_hash === row.config_hash : false, settled: true, stage: 'done', stage_plan: plan });
    if (settled !== 1) return;
    row = (await trx('crawls').where({ id: crawlId }).first()) as CrawlRow;
    crawlLog(services).info(crawlOutcome(row), 'crawl finished');
    await trx('projects')
      .where({ id: row.project_id })
      .andWhere((q) => q.whereNull('latest_crawl_finished_at').orWhere('latest_crawl_finished_at', '<=', row.finished_at))
      .update({ latest_crawl_id: row.id, latest_crawl_finished_at: row.finished_at });
    await services.events.publish({ type: 'crawl.completed', teamId: row.team_id, data: { crawl: toCrawl(row) } }, trx);
  });
}

/**
 * The PageSpeed step: skipped when the campaign did not ask (`not_requested`) or no provider is
 * configured (`no_provider`); otherwise the sample is measured on mobile and desktop, the result
 * stored, and `lighthouse_mobile_slow` raised on each page measured under 50 on mobile.
 */
async function pagespeedStep(services: Services, row: CrawlRow, plan: string, signal: AbortSignal, lease: JobLease): Promise<string> {
  const { knex } = services;
  const crawlId = row.id;
  const campaign = json<CampaignRow>(row.config, {} as CampaignRow);
  const requested = bool(campaign.pagespeed);
  const provider = runtimes.get(services)?.pagespeed ?? null;
  if (!requested || !provider) {
    const result = unmeasuredPageSpeed(requested);
    plan = setStep(plan, 'pagespeed', 'skipped', result.skip_reason);
    const skipped = plan;
    await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ pagespeed: JSON.stringify(result), stage: 'scoring', stage_plan: skipped }));
    return plan;
  }

  const sample = await selectSample(knex, crawlId);
  const pending: StoredPageSpeed = { ...unmeasuredPageSpeed(true), status: 'pending', provider: provider.name, skip_reason: null, sample: sample.map((s) => ({ ...s, mobile: null, desktop: null, error: null })) };
  plan = setStep(plan, 'pagespeed', 'running');
  const measuring = plan;
  await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ pagespeed: JSON.stringify(pending), stage_plan: measuring }));

  const measurements = await measureSample(provider, sample, signal);
  if (signal.aborted) return plan;
  const result = summarise(provider.name, sample, measurements, services.clock().toISOString());
  const slow = slowPages(measurements, campaign.issue_exclusion_patterns ?? null);
  plan = sample.length === 0 ? setStep(plan, 'pagespeed', 'skipped', 'no_page_to_measure') : setStep(plan, 'pagespeed', 'done');

  const measured = plan;
  await lease.write(async (trx) => {
    // A resumed step measured again: its earlier findings go first.
    await trx('crawl_issues').where({ crawl_id: crawlId, name: 'lighthouse_mobile_slow' }).delete();
    if (slow.length) {
      const [{ max }] = await trx('crawl_issues').where({ crawl_id: crawlId }).max({ max: 'seq' });
      let seq = max === null || max === undefined ? 0 : Number(max) + 1;
      const def = CHECKS.lighthouse_mobile_slow;
      await trx('crawl_issues').insert(
        slow.map((p) => ({
          crawl_id: crawlId,
          seq: seq++,
          name: 'lighthouse_mobile_slow',
          severity: def.severity,
          severity_rank: SEVERITY_RANK[def.severity],
          category: def.category,
          url: p.url,
          url_hash: urlHash(p.url),
          details: `mobile performance score ${p.score} (under ${THRESHOLDS.lighthouseMobileMin}), measured with ${provider.name}`,
        })),
      );
    }
    const counts = await countIssues(trx as unknown as Services['knex'], crawlId);
    await trx('crawls').where({ id: crawlId }).update({ ...counts, pagespeed: JSON.stringify(result), stage: 'scoring', stage_plan: measured });
  });
  return plan;
}
