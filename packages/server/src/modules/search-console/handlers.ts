/**
 * GET …/search-console: `unconfigured` without a linked property, `pending` until its first sync;
 * `sync` says whether this server synchronises at all (docs/decisions/search-console.md).
 */
import { type SearchConsole } from '@siteaudit/schema';
import { SEARCH_CONSOLE_DEFAULT_PERIOD, searchConsolePeriod, searchConsoleSync } from '@siteaudit/schema/rules';
import { assertIncluded } from '@siteaudit/schema/pipeline';
import type { Handlers } from '../../http/binder.js';
import type { Services } from '../../services.js';
import { findProject } from '../projects/project-row.js';

/** `synchronises`: the server has a Search Console provider (`providers.searchConsole` is not null). */
export function searchConsoleHandlers(services: Services, { synchronises }: { synchronises: boolean }): Pick<Handlers, 'getSearchConsole'> {
  // Reads only: on the read connections (docs/decisions/store.md), beside a crawl's writes.
  const { reads: knex } = services;
  return {
    async getSearchConsole(ctx, { params, query }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const plan = ctx.caller.plan;
      assertIncluded(services.plans(), plan, 'search_console', 'plan_limit.search_console');
      // Today's data is incomplete in Search Console: periods end yesterday (docs/decisions/periods.md).
      const period = searchConsolePeriod(query.period ?? SEARCH_CONSOLE_DEFAULT_PERIOD, ctx.now);
      const link = await knex('search_console_links').where({ project_id: project.id }).first();
      const data: SearchConsole = {
        project_id: project.id,
        status: link ? link.status : 'unconfigured',
        property: link?.property ?? null,
        synced_at: link?.synced_at ?? null,
        sync: searchConsoleSync(synchronises),
        performance: { period, totals: null, daily: [] },
        indexation: null,
      };
      if (link?.synced_at) {
        const rows = await knex('search_console_daily')
          .where({ project_id: project.id })
          .andWhere('date', '>=', period.from)
          .andWhere('date', '<=', period.to)
          .orderBy('date');
        const daily = rows.map((r: Record<string, unknown>) => ({
          date: r.date as string,
          clicks: Number(r.clicks),
          impressions: Number(r.impressions),
          ctr: Number(r.ctr),
          position: Number(r.position),
        }));
        const clicks = daily.reduce((n, d) => n + d.clicks, 0);
        const impressions = daily.reduce((n, d) => n + d.impressions, 0);
        const weighted = daily.reduce((n, d) => n + d.position * d.impressions, 0);
        data.performance.daily = daily;
        data.performance.totals = {
          clicks,
          impressions,
          ctr: impressions ? Math.round((clicks / impressions) * 10_000) / 10_000 : 0,
          // Google's own property-level position is impression-weighted; days without impressions have none.
          position: impressions ? Math.round((weighted / impressions) * 100) / 100 : null,
        };
        const inspections = await knex('search_console_inspections').where({ project_id: project.id }).select('verdict', 'inspected_at');
        if (inspections.length > 0) {
          const indexed = inspections.filter((r: { verdict: string }) => r.verdict === 'PASS').length;
          data.indexation = {
            inspected: inspections.length,
            indexed,
            not_indexed: inspections.length - indexed,
            as_of: inspections.map((r: { inspected_at: string }) => r.inspected_at).sort().pop()!,
          };
        }
      }
      return { body: { data } };
    },
  };
}
