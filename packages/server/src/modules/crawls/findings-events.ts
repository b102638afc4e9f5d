/**
 * The events about a settled crawl's findings (docs/decisions/regression-signals.md):
 * `signal.detected` when the comparison regressed past the campaign's `regression_threshold`, and
 * `recommendations.ready` once the prioritised fix list can be read. Both follow the campaign's
 * `notify` at settlement: false sends neither. Published in the transaction that settles the
 * crawl, so they are sent once, with `crawl.completed`.
 */
import type { Knex } from 'knex';
import { regressionSignal, SEVERITY_RANK, SIGNAL_TOP_CHECKS, type RegressionThreshold } from '@siteaudit/schema/rules';
import type { Services } from '../../services.js';
import { campaignNotification } from '../campaigns/reads.js';
import { teamSubscribes } from '../webhooks/reads.js';
import type { CheckCount } from './check-counts.js';
import type { StoredChanges } from './changes.js';
import type { CrawlRow } from './crawl-row.js';
import { recommendations } from './recommendations.js';

/** How many fixes the recommendations.ready event names. */
const EVENT_TOP_FIXES = 5;

/** The signal.detected payload of a comparison, or null when it does not regress past the threshold. */
export function signalPayload(threshold: RegressionThreshold, row: CrawlRow, changes: StoredChanges): Record<string, unknown> | null {
  if (changes.basis !== 'compared' || !changes.previous_crawl_id) return null;
  const health = changes.health.find((p) => p.key === 'technique')!;
  const signal = regressionSignal(threshold, { newIssues: changes.issues.new, health: { score: health.score, previous: health.previous_score } });
  if (!signal) return null;
  return {
    kind: 'regression',
    severity: signal.severity,
    reasons: signal.reasons,
    project_id: row.project_id,
    campaign_id: row.campaign_id,
    crawl_id: row.id,
    previous_crawl_id: changes.previous_crawl_id,
    counts: { ...changes.issues, pages_added: changes.pages.added, pages_removed: changes.pages.removed, status_changed: changes.pages.status_changed, redirect_changed: changes.pages.redirect_changed ?? 0 },
    health_score: { score: health.score, previous_score: health.previous_score, delta: health.delta },
    top_new_checks: changes.checks
      .filter((c) => c.new > 0)
      .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.new - a.new || (a.name < b.name ? -1 : 1))
      .slice(0, SIGNAL_TOP_CHECKS)
      .map((c) => ({ name: c.name, severity: c.severity, category: c.category, new: c.new })),
  };
}

/**
 * A crawl that has just settled `completed`, as the crawl job has it: its row as settled, what
 * changed since the previous comparable crawl, and the counts per check when the comparison read them.
 */
export interface SettledCrawl {
  services: Services;
  row: CrawlRow;
  changes: StoredChanges;
  checks?: CheckCount[];
}

/** Publishes the findings events of a crawl that has just settled `completed`, in `trx`. */
export async function publishFindingsEvents(trx: Knex.Transaction, crawl: SettledCrawl): Promise<void> {
  const { services, row, changes, checks } = crawl;
  const campaign = await campaignNotification(trx, row.campaign_id);
  if (!campaign?.notify) return;
  const signal = signalPayload(campaign.regressionThreshold, row, changes);
  if (signal) await services.events.publish({ type: 'signal.detected', teamId: row.team_id, data: signal }, trx);
  // Computed only when an active subscription of the team will receive the event; from the counts
  // the comparison read, else by grouping every issue of the crawl, in the settling transaction.
  if (!(await teamSubscribes(trx, row.team_id, 'recommendations.ready'))) return;
  const fixes = await recommendations(trx, row.id, 'en', checks);
  await services.events.publish(
    {
      type: 'recommendations.ready',
      teamId: row.team_id,
      data: {
        project_id: row.project_id,
        campaign_id: row.campaign_id,
        crawl_id: row.id,
        recommendations: fixes.length,
        top: fixes.slice(0, EVENT_TOP_FIXES).map((f) => ({ name: f.name, severity: f.severity, pages: f.pages, impact: f.impact })),
      },
    },
    trx,
  );
}
