import { paginationRules } from './pagination.js';
import { mockTarget } from './target.js';

paginationRules(mockTarget());
