/**
 * Every table and the one area that owns it: the only place its rows are read or written. Another
 * module goes through the owner's exported reads and writes (`reads.ts`, `writes.ts`, `*-row.ts`);
 * `test/module-boundaries.test.ts` fails on a query naming a table outside its owner. `core` is the
 * server's own machinery (src/http, src/jobs, src/admin.ts, src/crypto…), which no module queries.
 * docs/architecture.md, "Tables and their owners", shows the same list.
 */
export const TABLE_OWNERS = {
  teams: 'core',
  members: 'core',
  tokens: 'core',
  settings: 'core',
  jobs: 'core',
  idempotency_keys: 'core',
  rate_counters: 'core',
  team_rate_counters: 'core',
  projects: 'projects',
  campaigns: 'campaigns',
  crawls: 'crawls',
  crawl_pages: 'crawls',
  crawl_issues: 'crawls',
  crawl_resources: 'crawls',
  crawl_page_resources: 'crawls',
  crawl_changes: 'crawls',
  crawl_summaries: 'crawls',
  crawl_links: 'crawls',
  crawl_link_chunks: 'crawls',
  quota_usage: 'crawls',
  exports: 'exports',
  export_erasures: 'exports',
  position_trackers: 'positions',
  tracked_keywords: 'positions',
  keyword_checks: 'positions',
  keyword_positions: 'positions',
  search_console_daily: 'search-console',
  search_console_inspections: 'search-console',
  search_console_links: 'search-console',
  webhooks: 'webhooks',
  webhook_deliveries: 'webhooks',
  log_imports: 'logs',
  log_day_stats: 'logs',
  log_url_stats: 'logs',
} as const;

export type Table = keyof typeof TABLE_OWNERS;
