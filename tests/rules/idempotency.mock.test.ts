import { idempotencyRules } from './idempotency.js';
import { mockTarget } from './target.js';

idempotencyRules(mockTarget());
