import { idempotencyRules } from './idempotency.js';
import { serverTarget } from './server-target.js';

idempotencyRules(serverTarget());
