/** GET /v1/projects/{project}/scorecard: the pillars of the project's latest settled crawl (docs/decisions/scorecard.md). */
import type { Handlers } from '../../http/binder.js';
import type { Services } from '../../services.js';
import { latestSettledCrawl } from '../crawls/reads.js';
import { findProject } from '../projects/project-row.js';
import { scorecardPillars } from './pillars.js';

/** `searchConsoleSynchronises`: the server has a Search Console provider (the search-console module's `synchronises`). */
export function scorecardHandlers(services: Services, { searchConsoleSynchronises }: { searchConsoleSynchronises: boolean }): Pick<Handlers, 'getScorecard'> {
  // A read of a request that writes nothing (store/database.ts).
  const { reads } = services;
  return {
    async getScorecard(ctx, { params }) {
      const project = await findProject(reads, ctx.caller, params.project);
      const latest = await latestSettledCrawl(reads, project.id);
      const pillars = await scorecardPillars(reads, project.id, latest, { inPlan: ctx.caller.plan.limits.search_console !== 0, synchronises: searchConsoleSynchronises }, ctx.now);
      return { body: { data: { project_id: project.id, pillars } } };
    },
  };
}
