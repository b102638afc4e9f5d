/**
 * After the fetch: aggregation, PageSpeed, scoring and comparison, then the crawl is settled and
 * `crawl.completed` published, once, with the findings events (`signal.detected`,
 * `recommendations.ready`) when the campaign notifies. Each step done is recorded in the stage plan, so a resumed
 * run skips it.
 */
import { sectionOf, unmeasuredPageSpeed } from '@siteaudit/schema/rules';
import { CHECKS, THRESHOLDS } from '../../crawler/index.js';
import type { Services } from '../../services.js';
import { bool, json, refreshPlannerStatistics } from '../../store/database.js';
import type { CampaignRow } from '../campaigns/campaign-row.js';
import { recordLatestCrawl } from '../projects/writes.js';
import { SEVERITY_RANK, toCrawl, type CrawlRow } from './crawl-row.js';
import { crawlLog, crawlOutcome, logStage } from './crawl-log.js';
import { urlHash } from './crawl-sink.js';
import { countChecks, scoredPages, storeSummary, type CheckCount } from './check-counts.js';
import { summariseIssues } from './summary.js';
import { changesSummary, previousComparableCrawl, writeChanges } from './changes.js';
import { publishFindingsEvents } from './findings-events.js';
import type { CrawlJob } from './crawl-context.js';
import { healthWithPageSpeed, measureSample, selectSample, slowPages, summarise, type StoredPageSpeed } from './pagespeed-step.js';
import { setStep, settledStep, startStep } from './stage-plan.js';
import { orderCrawlLinks } from './link-order.js';

/** Issue counts from the stored occurrences, so they always match the reports. */
async function countIssues(knex: Services['knex'], crawlId: string) {
  const counts = (await knex('crawl_issues').where({ crawl_id: crawlId }).select('severity').count({ count: '*' }).groupBy('severity')) as { severity: string; count: string | number }[];
  const by = (s: string) => Number(counts.find((c) => c.severity === s)?.count ?? 0);
  return { issues_error: by('error'), issues_warning: by('warning'), issues_info: by('info') };
}

/**
 * Aggregation, PageSpeed, scoring and comparison; then settled, and crawl.completed published.
 * A step already done (a run resumed after a restart) is not done again. The crawl's row is read
 * again: the fetch stage has written it since the job read it.
 */
export async function postProcess(job: CrawlJob): Promise<void> {
  const { services, signal, lease } = job;
  const { knex } = services;
  const crawlId = job.row.id;
  let row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;
  let plan = row.stage_plan;

  logStage(services, row, 'analysing');
  plan = setStep(plan, 'analysing', 'running');
  await orderCrawlLinks(job, { signal });
  if (signal.aborted) return;
  const counts = await countIssues(knex, crawlId);
  plan = startStep(setStep(plan, 'analysing', 'done'), 'pagespeed');
  await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ ...counts, stage: 'pagespeed', stage_plan: plan }));
  logStage(services, row, 'pagespeed');

  if (!settledStep(plan, 'pagespeed')) plan = await pagespeedStep({ ...job, row }, plan);
  if (signal.aborted) return;

  logStage(services, row, 'scoring');
  if (!settledStep(plan, 'scoring')) {
    row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;
    // The crawler scored the findings it made; PageSpeed joins afterwards (docs/decisions/scorecard.md).
    const pagespeed = json<StoredPageSpeed | null>(row.pagespeed, null);
    let health = row.health_score === null ? null : Number(row.health_score);
    if (health !== null && pagespeed?.status === 'measured') {
      const [{ slow }] = await knex('crawl_issues').where({ crawl_id: crawlId, name: 'lighthouse_mobile_slow' }).countDistinct({ slow: 'url_hash' });
      health = healthWithPageSpeed(health, await scoredPages(knex, crawlId), Number(slow), pagespeed.combined);
    }
    plan = startStep(setStep(plan, 'scoring', 'done'), 'comparing');
    // One write for the score and the step: a resumed run never applies the adjustment twice.
    const scored = plan;
    await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ health_score: health, stage: 'comparing', stage_plan: scored }));
  } else {
    plan = startStep(plan, 'comparing');
    const comparing = plan;
    await lease.write((trx) => trx('crawls').where({ id: crawlId }).update({ stage: 'comparing', stage_plan: comparing }));
  }

  logStage(services, row, 'comparing');
  const previous = await knex('crawls')
    .where({ campaign_id: row.campaign_id, status: 'completed', settled: true })
    .whereNot({ id: crawlId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('config_hash');
  row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;
  let checks: CheckCount[] | undefined;
  if (!settledStep(plan, 'comparing')) {
    // What changed since the previous comparable crawl (docs/decisions/crawl-changes.md), in
    // fenced writes; the step is done with the write that stores the summary, so a resumed run
    // replaces what an interrupted one wrote.
    const against = await previousComparableCrawl(knex, row);
    // Read once, for the comparison and the fix list (the crawl's issues no longer change).
    checks = await countChecks(knex, crawlId);
    const changes = await writeChanges({ knex, write: lease.write, crawl: row, previous: against, counted: checks });
    // What the crawl's reports start from, stored once (migration 036) with the step that ends its issues.
    const summary = await summariseIssues(knex, crawlId, checks);
    plan = setStep(plan, 'comparing', 'done');
    const compared = plan;
    await lease.write(async (trx) => {
      await storeSummary(trx, crawlId, summary);
      await trx('crawls').where({ id: crawlId }).update({ previous_crawl_id: changes.previous_crawl_id, changes: JSON.stringify(changes), stage_plan: compared });
    });
    row = (await knex('crawls').where({ id: crawlId }).first()) as CrawlRow;
  }

  await lease.write(async (trx) => {
    // The update that settles the crawl publishes its event: only one run can find it unsettled.
    const settled = await trx('crawls')
      .where({ id: crawlId, settled: false })
      .update({ comparable: previous ? previous.config_hash === row.config_hash : false, settled: true, stage: 'done', stage_plan: plan });
    if (settled !== 1) return;
    row = (await trx('crawls').where({ id: crawlId }).first()) as CrawlRow;
    crawlLog(services).info(crawlOutcome(row), 'crawl finished');
    await recordLatestCrawl(trx, row);
    await services.events.publish({ type: 'crawl.completed', teamId: row.team_id, data: { crawl: toCrawl(row) } }, trx);
    await publishFindingsEvents(trx, { services, row, changes: changesSummary(row), checks });
  });
  // The crawl's rows may have multiplied its tables: statistics for the reads of its pages and issues.
  await refreshPlannerStatistics(knex).catch((error: unknown) => crawlLog(services).warn({ err: error }, 'planner statistics not refreshed'));
}

/**
 * The PageSpeed step: skipped when the campaign did not ask (`not_requested`) or no provider is
 * configured (`no_provider`); otherwise the sample is measured on mobile and desktop, the result
 * stored, and `lighthouse_mobile_slow` raised on each page measured under 50 on mobile.
 */
async function pagespeedStep(job: CrawlJob, plan: string): Promise<string> {
  const { services, runtime, row, signal, lease } = job;
  const { knex } = services;
  const crawlId = row.id;
  const campaign = json<CampaignRow>(row.config, {} as CampaignRow);
  const requested = bool(campaign.pagespeed);
  const provider = runtime.pagespeed ?? null;
  if (!requested || !provider) {
    const result = unmeasuredPageSpeed(requested);
    plan = startStep(setStep(plan, 'pagespeed', 'skipped', result.skip_reason), 'scoring');
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
  plan = startStep(sample.length === 0 ? setStep(plan, 'pagespeed', 'skipped', 'no_page_to_measure') : setStep(plan, 'pagespeed', 'done'), 'scoring');

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
          section: sectionOf(p.url),
          details: `mobile performance score ${p.score} (under ${THRESHOLDS.lighthouseMobileMin}), measured with ${provider.name}`,
        })),
      );
    }
    const counts = await countIssues(trx as unknown as Services['knex'], crawlId);
    await trx('crawls').where({ id: crawlId }).update({ ...counts, pagespeed: JSON.stringify(result), stage: 'scoring', stage_plan: measured });
  });
  return plan;
}
