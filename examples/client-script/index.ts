/**
 * Audits one site end to end with @siteaudit/client:
 *
 *   SITEAUDIT_URL=http://127.0.0.1:8080 SITEAUDIT_TOKEN=sa_… npm start -- https://example.com
 *
 * The token needs projects:write, crawls:write and crawls:read.
 */
import { SiteAuditError, createClient } from '@siteaudit/client';

const baseUrl = process.env.SITEAUDIT_URL;
const token = process.env.SITEAUDIT_TOKEN;
if (!baseUrl || !token) {
  console.error('Set SITEAUDIT_URL (without /v1) and SITEAUDIT_TOKEN.');
  process.exit(2);
}
const site = process.argv[2] ?? 'https://example.com';

/** What each `blocked_reason` means (docs/decisions/crawl-lifecycle.md). */
const BLOCKED_REASONS: Record<string, string> = {
  firewall: 'a firewall or bot protection answered instead of the site',
  robots_disallow: 'robots.txt disallows the crawler',
  robots_unreachable: 'robots.txt could not be read',
  address_refused: 'the site resolves to a private or non-public address',
  unreachable: 'the start URL could not be reached',
};

const client = createClient({
  baseUrl,
  token,
  language: 'en',
  onRateLimit: ({ delayMs, willRetry }) => console.warn(willRetry ? `rate limited, retrying in ${Math.ceil(delayMs / 1000)} s` : 'rate limited'),
});

// Ctrl-C stops the wait cleanly instead of killing a request midway.
const stop = new AbortController();
process.once('SIGINT', () => stop.abort(new Error('interrupted')));

try {
  // Creating a project also creates its default campaign.
  const project = await client.projects.create({ url: site });
  console.log(`project ${project.name} (${project.id})`);
  const [campaign] = (await client.campaigns.list({ project: project.id, limit: 1 })).data;
  if (!campaign) throw new Error('the project has no campaign');

  // The client sends a generated Idempotency-Key (required here) and reuses it if it retries.
  const launched = await client.crawls.launch({ campaign: campaign.id });
  console.log(`crawl ${launched.id} launched`);

  const crawl = await client.waitForCrawl(launched.id, {
    intervalMs: 3000,
    signal: stop.signal,
    onProgress: (c) => {
      const step = `${c.stage_plan.current_step}/${c.stage_plan.step_count}`;
      console.log(`  ${c.status.padEnd(9)} ${c.stage.padEnd(10)} step ${step}  pages ${c.pages.crawled}/${c.pages.budget}`);
    },
  });
  if (crawl.status !== 'completed') {
    console.error(`crawl ended ${crawl.status}${crawl.error ? `: ${crawl.error}` : ''}`);
    process.exit(1);
  }
  // A site that kept the crawler out still ends `completed`: its empty reports are not "0 errors".
  if (crawl.blocked) {
    console.error(`crawl blocked: ${BLOCKED_REASONS[crawl.blocked_reason ?? ''] ?? crawl.blocked_reason ?? 'no reason given'} (${crawl.pages.crawled} pages crawled)`);
    process.exit(1);
  }

  const summary = await client.crawls.issues.summary({ crawl: crawl.id });
  const { error, warning, info } = summary.totals;
  console.log(`\n${error} errors, ${warning} warnings, ${info} notices`);
  for (const group of [...summary.groups].sort((a, b) => b.occurrences - a.occurrences).slice(0, 15)) {
    console.log(`  ${group.severity.padEnd(7)} ${String(group.occurrences).padStart(5)}  ${group.name}`);
  }
} catch (err) {
  if (err instanceof SiteAuditError) {
    // The message names the code, the status and the request id to quote to support.
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
