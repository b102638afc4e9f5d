/**
 * The code under test: what an application of yours might do with the Site Audit API. It knows
 * nothing of the mock; the test hands it a client pointed at the mock's base URL.
 */
import type { SiteAuditClient } from '@siteaudit/client';

export interface AuditReport {
  crawlId: string;
  errors: number;
  /** The issue groups with errors, most frequent first. */
  topErrors: { name: string; occurrences: number }[];
}

/** Crawls a project with its default campaign and reports its errors once the reports are ready. */
export async function auditProject(client: SiteAuditClient, projectId: string, options: { intervalMs?: number } = {}): Promise<AuditReport> {
  const { data: [campaign] } = await client.campaigns.list({ project: projectId, limit: 1 });
  if (!campaign) throw new Error(`Project ${projectId} has no campaign`);
  const launched = await client.crawls.launch({ campaign: campaign.id });
  const crawl = await client.waitForCrawl(launched.id, { intervalMs: options.intervalMs });
  const summary = await client.crawls.issues.summary({ crawl: crawl.id });
  return {
    crawlId: crawl.id,
    errors: summary.totals.error,
    topErrors: summary.groups
      .filter((g) => g.severity === 'error')
      .sort((a, b) => b.occurrences - a.occurrences)
      .map(({ name, occurrences }) => ({ name, occurrences })),
  };
}
