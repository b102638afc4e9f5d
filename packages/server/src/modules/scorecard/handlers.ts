/** GET /v1/projects/{project}/scorecard: the pillars of the project's latest settled crawl (docs/decisions/scorecard.md). */
import type { Handlers } from '../../http/binder.js';
import type { Services } from '../../services.js';
import type { CrawlRow } from '../crawls/crawl-row.js';
import { findProject } from '../projects/project-row.js';
import { scorecardPillars, settledCrawls } from './pillars.js';

export function scorecardHandlers(services: Services): Pick<Handlers, 'getScorecard'> {
  const { knex } = services;
  return {
    async getScorecard(ctx, { params }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const latest = (await settledCrawls(knex, project.id).first()) as CrawlRow | undefined;
      const pillars = await scorecardPillars(knex, project.id, latest, ctx.caller.plan.limits.search_console !== 0, ctx.now);
      return { body: { data: { project_id: project.id, pillars } } };
    },
  };
}
