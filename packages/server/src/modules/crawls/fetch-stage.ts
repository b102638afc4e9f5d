/**
 * The fetch stage of a crawl: the crawler walks the site in a crawl thread (with a headless
 * Chromium when the campaign asks for JavaScript rendering or accessibility checks) and its
 * findings are written here, on this thread, through the sink; then the crawl is marked
 * completed. A resumed run starts the fetch over.
 */
import { abortError } from '../../abort.js';
import { bool, json } from '../../store/database.js';
import { crawlSite, resolveCrawlConfig } from '../../crawler/index.js';
import { createRenderer, type RendererOptions } from '../../rendering/renderer.js';
import type { CampaignRow } from '../campaigns/campaign-row.js';
import type { CrawlJob } from './crawl-context.js';
import type { CrawlRow } from './crawl-row.js';
import { crawlLog } from './crawl-log.js';
import { crawlSink } from './crawl-sink.js';
import { loggedProgress } from './progress-log.js';
import { setStep, startStep } from './stage-plan.js';
import { siteUnreachableError } from './crawl-errors.js';

/** How the fetch ended: the site fetched, the crawl stopped on request, or the site not reached at all (the crawl's `error`). */
export type FetchEnd = 'fetched' | 'stopped' | { unreachable: string };

export type { CrawlRuntime } from './crawl-context.js';

/**
 * Fetches the site and stores the outcome; `stopped` when the crawl was stopped on request while
 * it fetched. Interrupted otherwise (shutdown, a lost lease), it throws an AbortError.
 */
export async function fetchStage(job: CrawlJob): Promise<FetchEnd> {
  const { services, runtime, row, signal, lease } = job;
  const { knex } = services;
  const crawlId = row.id;
  const startedAt = row.started_at ?? services.clock().toISOString();
  await lease.write(async (trx) => {
    // A resumed run starts over: what an interrupted run wrote is discarded.
    await trx('crawl_pages').where({ crawl_id: crawlId }).delete();
    await trx('crawl_issues').where({ crawl_id: crawlId }).delete();
    await trx('crawl_resources').where({ crawl_id: crawlId }).delete();
    await trx('crawl_page_resources').where({ crawl_id: crawlId }).delete();
    await trx('crawl_links').where({ crawl_id: crawlId }).delete();
    await trx('crawl_link_chunks').where({ crawl_id: crawlId }).delete();
    await trx('crawl_summaries').where({ crawl_id: crawlId }).delete();
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

  const stopper = new AbortController();
  const sink = loggedProgress(crawlSink(job, log, () => stopper.abort()), log, { crawl: crawlId, campaign: row.campaign_id, team: row.team_id });
  const needsBrowser = config.javascriptRendering || config.checkAccessibility || config.checkAccessibilityRendered;
  const rendering: RendererOptions | null = needsBrowser
    ? {
        allowPrivateAddresses: config.allowPrivateAddresses,
        userAgent: config.userAgent,
        timeoutMs: config.timeoutMs,
        httpAuth: config.httpAuth ? { origin: new URL(config.startUrl).origin, ...config.httpAuth } : null,
      }
    : null;
  const crawlSignal = AbortSignal.any([signal, stopper.signal]);
  let outcome;
  try {
    if (runtime.threads && !runtime.renderer) {
      outcome = await runtime.threads.run({ config, sink, signal: crawlSignal, renderer: rendering });
    } else {
      const renderer = rendering ? (runtime.renderer ?? createRenderer)(rendering) : undefined;
      try {
        outcome = await crawlSite(config, sink, { signal: crawlSignal, renderer });
      } finally {
        await renderer?.close();
      }
    }
  } catch (error) {
    // A fetch ended by an error (a stop among them) keeps the links its stored pages found.
    await sink.flushed().catch(() => undefined);
    throw error;
  }
  await sink.flushed();
  if (outcome.aborted) {
    const current = await knex('crawls').where({ id: crawlId }).first('stop_requested');
    if (current && bool(current.stop_requested)) return 'stopped';
    throw abortError(signal, 'crawl interrupted');
  }

  if (outcome.unreachable) {
    // Nothing of the site was seen: the crawl fails (crawl.failed) with the cause; what was
    // recorded (the start URL, the site_unreachable finding) stays readable.
    await lease.write(async (trx) => {
      const fresh = (await trx('crawls').where({ id: crawlId }).first()) as CrawlRow;
      await trx('crawls')
        .where({ id: crawlId })
        .update({
          pages_crawled: outcome.crawled,
          pages_discovered: outcome.discovered,
          blocked: true,
          blocked_reason: outcome.blockedReason,
          issues_error: outcome.issueCounts.error,
          issues_warning: outcome.issueCounts.warning,
          issues_info: outcome.issueCounts.info,
          health_score: null,
          finished_at: services.clock().toISOString(),
          stage_plan: setStep(fresh.stage_plan, 'fetching', 'done'),
        });
    });
    return { unreachable: siteUnreachableError(outcome.unreachable.type, outcome.unreachable.message) };
  }

  await lease.write(async (trx) => {
    const fresh = (await trx('crawls').where({ id: crawlId }).first()) as CrawlRow;
    await trx('crawls')
    .where({ id: crawlId })
    .update({
      // Completed is set before post-processing ends; reports wait for `settled`.
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
      stage_plan: startStep(setStep(fresh.stage_plan, 'fetching', 'done'), 'analysing'),
    });
  });
  return 'fetched';
}

