import { rateLimitRules } from './rate-limits.js';
import { mockTarget } from './target.js';

rateLimitRules(mockTarget());
