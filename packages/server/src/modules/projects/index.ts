/** The projects module: the five project operations and the `projects.max` usage counter. */
import type { Services } from '../../services.js';
import { defineModule, defineQuota } from '../module.js';
import { projectHandlers, type CrawlStopper, type ExportEraser, type LogEraser } from './handlers.js';

export interface ProjectsNeeds {
  /** From the crawls module: a project's deletion stops its running crawls first. */
  stopper: CrawlStopper;
  /** From the logs module: a project's deletion stops its log parses and removes its uploads. */
  logs: LogEraser;
  /** From the exports module: a project's deletion removes its exports' files. */
  exports: ExportEraser;
}

export function projectsModule(services: Services, needs: ProjectsNeeds) {
  return defineModule({
    name: 'projects',
    needs: ['crawls', 'logs', 'exports'],
    handlers: projectHandlers(services, needs),
    quotas: [
      defineQuota('projects.max', async (caller) => {
        const [{ count }] = await services.knex('projects').where({ team_id: caller.teamId }).count({ count: '*' });
        return Number(count);
      }),
    ],
  });
}
