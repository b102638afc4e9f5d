/**
 * Search Console synchronisation: once on linking, then daily. It fetches the daily performance
 * series of the last 365 days (the longest period preset) and inspects a sample of the site's
 * URLs, then records the outcome on the link (`ready`, or `error` with the reason).
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { searchConsolePeriod } from '@siteaudit/schema/rules';
import { parseServiceAccount } from '../../providers/google-auth.js';
import type { SearchConsoleProvider } from '../../providers/index.js';
import type { Services } from '../../services.js';
import { transaction } from '../../store/retry.js';
import { claimDailyRun, scheduleDailyRun, type DailyRun } from '../../jobs/daily-run.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import { SEARCH_CONSOLE_SYNC } from './jobs.js';
import { projectById } from '../projects/reads.js';
import { shallowHtmlPageUrls } from '../crawls/reads.js';

/** URLs inspected per synchronisation: the home page and the shallowest crawled pages. */
export const INSPECTION_SAMPLE = 20;

/** The daily synchronisation: `search_console_links.next_sync_on` holds its next day. */
const DAILY_SYNC: DailyRun = { table: 'search_console_links', column: 'next_sync_on', job: SEARCH_CONSOLE_SYNC };

export const credentialsContext = (projectId: string) => `${projectId}:search_console`;

/** Sets the link's next run to `day` and enqueues it (at `runAt`, default midnight UTC of `day`). */
export async function scheduleSync(services: Pick<Services, 'jobs'>, trx: Knex.Transaction, projectId: string, day: string, runAt?: Date): Promise<void> {
  await scheduleDailyRun(services, trx, DAILY_SYNC, projectId, day, runAt);
}

/** The URLs to inspect: the project URL, then internal HTML pages of its latest crawl by depth. */
async function inspectionSample(knex: Knex, project: { id: string; url: string; latest_crawl_id: string | null }): Promise<string[]> {
  const urls = [project.url];
  if (project.latest_crawl_id) {
    for (const url of await shallowHtmlPageUrls(knex, project.latest_crawl_id, INSPECTION_SAMPLE * 2)) if (!urls.includes(url)) urls.push(url);
  }
  return urls.slice(0, INSPECTION_SAMPLE);
}

export function syncJob(services: Services, provider: SearchConsoleProvider | null): ModuleJob {
  const { knex } = services;

  async function sync(projectId: string, signal: AbortSignal): Promise<void> {
    // Without a provider nothing is synchronised and nothing failed: the link stays as it is
    // (`pending`, or the last sync's outcome), and the read's `sync` says why no sync comes.
    if (!provider) return;
    const link = await knex('search_console_links').where({ project_id: projectId }).first();
    const project = await projectById(knex, projectId);
    if (!link || !project) return;
    const credentials = parseServiceAccount(services.secrets.decrypt(link.credentials_enc, credentialsContext(projectId)));
    const request = { property: link.property as string, credentials, signal };
    // The longest read period, ending yesterday as the read's do (docs/decisions/periods.md).
    const { from: startDate, to: endDate } = searchConsolePeriod('365d', services.clock());
    const days = await provider.searchAnalytics({ ...request, startDate, endDate });

    const inspections: { url: string; verdict: string; coverageState: string | null; indexingState: string | null }[] = [];
    let inspectionError: string | null = null;
    for (const url of await inspectionSample(knex, project)) {
      try {
        inspections.push(await provider.inspectUrl({ ...request, url }));
      } catch (error) {
        // One URL Google will not inspect (outside the property…) does not fail the sync.
        inspectionError ??= error instanceof Error ? error.message : String(error);
      }
    }

    const now = services.clock().toISOString();
    await transaction(knex, async (trx) => {
      await trx('search_console_daily').where({ project_id: projectId }).andWhere('date', '>=', startDate).andWhere('date', '<=', endDate).delete();
      const rows = days.map((d) => ({ project_id: projectId, date: d.date, clicks: Math.round(d.clicks), impressions: Math.round(d.impressions), ctr: d.ctr, position: d.position }));
      for (let i = 0; i < rows.length; i += 100) await trx('search_console_daily').insert(rows.slice(i, i + 100));
      if (inspections.length > 0 || inspectionError === null) {
        await trx('search_console_inspections').where({ project_id: projectId }).delete();
        const inspected = inspections.map((r) => ({
          project_id: projectId,
          url_hash: createHash('sha256').update(r.url).digest('hex'),
          url: r.url,
          verdict: r.verdict,
          coverage_state: r.coverageState?.slice(0, 200) ?? null,
          indexing_state: r.indexingState?.slice(0, 50) ?? null,
          inspected_at: now,
        }));
        for (let i = 0; i < inspected.length; i += 100) await trx('search_console_inspections').insert(inspected.slice(i, i + 100));
      }
      await trx('search_console_links')
        .where({ project_id: projectId })
        .update({ status: 'ready', synced_at: now, last_error: inspections.length === 0 && inspectionError ? `URL inspection: ${inspectionError}`.slice(0, 1000) : null });
    });
  }

  return defineJobHandler(SEARCH_CONSOLE_SYNC, {
    async run({ projectId, day }, ctx) {
      if (!(await claimDailyRun(services, DAILY_SYNC, projectId, day))) return;
      try {
        await sync(projectId, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        // Recorded, not retried: Google's refusals (permission, unknown property) do not heal in
        // minutes, and tomorrow's run tries again. The data of the last good sync stays readable.
        const message = error instanceof Error ? error.message : String(error);
        await knex('search_console_links').where({ project_id: projectId }).update({ status: 'error', last_error: message.slice(0, 1000) });
      }
    },
  });
}
