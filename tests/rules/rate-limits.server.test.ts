import { rateLimitRules } from './rate-limits.js';
import { serverTarget } from './server-target.js';

rateLimitRules(serverTarget());
