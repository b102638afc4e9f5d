import type { Knex } from 'knex';
import * as core from './001-core.js';
import * as crawls from './002-crawls.js';
import * as webhooks from './003-webhooks.js';
import * as positions from './004-positions.js';
import * as exportsTable from './005-exports.js';
import * as usage from './006-usage.js';
import * as rateCounters from './007-rate-counters.js';
import * as leases from './008-leases.js';
import * as crawlLease from './009-jobs-crawl-lease.js';
import * as crawlResources from './010-crawl-resources.js';
import * as pageRedirects from './011-page-redirects.js';
import * as logs from './012-logs.js';
import * as crawlChanges from './013-crawl-changes.js';
import * as issuePairsIndex from './014-issue-pairs-index.js';
import * as logUrlStatsKeyset from './015-log-url-stats-keyset.js';
import * as logImportDigest from './016-log-import-digest.js';
import * as pageDepthNullable from './017-page-depth-nullable.js';
import * as changesGoneWithPage from './018-changes-gone-with-page.js';
import * as logImportTruncation from './019-log-import-truncation.js';
import * as issueSections from './021-issue-sections.js';
import * as exportBranding from './024-export-branding.js';
import * as crawlLinks from './026-crawl-links.js';
import * as logUrlStatsByPath from './027-log-url-stats-by-path.js';
import * as crawlLinksByTarget from './028-crawl-links-by-target.js';
import * as crawlIssueIndexes from './029-crawl-issue-indexes.js';
import * as crawlLinkChunks from './030-crawl-link-chunks.js';
import * as logUnverifiedPaths from './031-log-unverified-paths.js';
import * as exportErasures from './032-export-erasures.js';
import * as logEmailPaths from './033-log-email-paths.js';
import * as changeRedirects from './034-change-redirects.js';
import * as logCredentialPaths from './035-log-credential-paths.js';
import * as crawlSummaries from './036-crawl-summaries.js';

/** Migrations are imported statically so a bundled build still finds them. */
const MIGRATIONS: Record<string, Knex.Migration> = {
  '001-core': core,
  '002-crawls': crawls,
  '003-webhooks': webhooks,
  '004-positions': positions,
  '005-exports': exportsTable,
  '006-usage': usage,
  '007-rate-counters': rateCounters,
  '008-leases': leases,
  '009-jobs-crawl-lease': crawlLease,
  '010-crawl-resources': crawlResources,
  '011-page-redirects': pageRedirects,
  '012-logs': logs,
  '013-crawl-changes': crawlChanges,
  '014-issue-pairs-index': issuePairsIndex,
  '015-log-url-stats-keyset': logUrlStatsKeyset,
  '016-log-import-digest': logImportDigest,
  '017-page-depth-nullable': pageDepthNullable,
  '018-changes-gone-with-page': changesGoneWithPage,
  '019-log-import-truncation': logImportTruncation,
  '021-issue-sections': issueSections,
  '024-export-branding': exportBranding,
  '026-crawl-links': crawlLinks,
  '027-log-url-stats-by-path': logUrlStatsByPath,
  '028-crawl-links-by-target': crawlLinksByTarget,
  '029-crawl-issue-indexes': crawlIssueIndexes,
  '030-crawl-link-chunks': crawlLinkChunks,
  '031-log-unverified-paths': logUnverifiedPaths,
  '032-export-erasures': exportErasures,
  '033-log-email-paths': logEmailPaths,
  '034-change-redirects': changeRedirects,
  '035-log-credential-paths': logCredentialPaths,
  '036-crawl-summaries': crawlSummaries,
};

export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return Object.keys(MIGRATIONS).sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    return MIGRATIONS[name];
  },
};
