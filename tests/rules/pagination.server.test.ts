import { paginationRules } from './pagination.js';
import { serverTarget } from './server-target.js';

paginationRules(serverTarget());
