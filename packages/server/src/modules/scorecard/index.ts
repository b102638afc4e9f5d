/** The scorecard module: GET /v1/projects/{project}/scorecard. */
import type { Services } from '../../services.js';
import { defineModule } from '../module.js';
import { scorecardHandlers } from './handlers.js';

export function scorecardModule(services: Services, needs: { searchConsoleSynchronises: boolean }) {
  return defineModule({ name: 'scorecard', needs: ['search-console'], handlers: scorecardHandlers(services, needs) });
}
