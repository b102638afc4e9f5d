/** GET /v1/projects/{project}/scorecard: the pillars of the project's latest settled crawl (docs/decisions/scorecard.md). */
import type { Handlers } from '../../http/binder.js';
import type { Services } from '../../services.js';
import { latestSettledCrawl } from '../crawls/reads.js';
import { findProject } from '../projects/project-row.js';
import { scorecardPillars } from './pillars.js';

export function scorecardHandlers(services: Services): Pick<Handlers, 'getScorecard'> {
  const { knex } = services;
  return {
    async getScorecard(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const latest = await latestSettledCrawl(knex, project.id);
      const pillars = await scorecardPillars(knex, project.id, latest, ctx.caller.plan.limits.search_console !== 0, ctx.now);
      return { body: { data: { project_id: project.id, pillars } } };
    },
  };
}
