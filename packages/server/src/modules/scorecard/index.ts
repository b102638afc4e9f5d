/** The scorecard module: GET /v1/projects/{project}/scorecard. */
import type { Services } from '../../services.js';
import { defineModule } from '../module.js';
import { scorecardHandlers } from './handlers.js';

export function scorecardModule(services: Services) {
  return defineModule({ name: 'scorecard', handlers: scorecardHandlers(services) });
}
