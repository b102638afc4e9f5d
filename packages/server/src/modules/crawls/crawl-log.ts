/** The crawl lines of the log: started, finished, failed, stopped, with pages and duration. */
import type { Services } from '../../services.js';
import type { CrawlRow } from './crawl-row.js';

/** The crawls module's logger: crawl started, finished, failed (finish.ts) and their warnings. */
export const crawlLog = (services: Services) => services.logger.child({ module: 'crawls' });

/** A `crawl stage` line: the crawl entered `stage` (analysing, pagespeed, scoring, comparing). */
export function logStage(services: Services, row: Pick<CrawlRow, 'id' | 'campaign_id' | 'team_id'>, stage: string): void {
  crawlLog(services).info({ crawl: row.id, campaign: row.campaign_id, team: row.team_id, stage }, 'crawl stage');
}

/** The fields of a crawl's last log line: pages, duration (business clock), score, error. */
export function crawlOutcome(row: CrawlRow): Record<string, unknown> {
  const started = row.started_at ? Date.parse(row.started_at) : NaN;
  const finished = row.finished_at ? Date.parse(row.finished_at) : NaN;
  return {
    crawl: row.id,
    campaign: row.campaign_id,
    team: row.team_id,
    status: row.status,
    pages: Number(row.pages_crawled ?? 0),
    duration_ms: Number.isNaN(started) || Number.isNaN(finished) ? undefined : finished - started,
    health_score: row.health_score === null ? undefined : Math.round(Number(row.health_score)),
    issues: row.issues_error === null || row.issues_error === undefined ? undefined : { error: Number(row.issues_error), warning: Number(row.issues_warning), info: Number(row.issues_info) },
    error: row.error ?? undefined,
  };
}
