/**
 * The crawler's side of the audit catalogue (docs/health-score.md): the catalogue itself
 * (severity, category, labels) is shared with the mock in `@siteaudit/schema`; here are the
 * crawler's agent lists, accessibility mapping and thresholds.
 */
import type { Severity } from './crawl-types.js';

export { CHECKS, type CheckCategory, type CheckDefinition, type CheckName } from '@siteaudit/schema';

/** The AI agents live in the schema: the log module classifies requests by the same lists. */
export { AI_SEARCH_AGENTS, AI_TRAINING_CRAWLERS } from '@siteaudit/schema';

/**
 * Accessibility findings are named after their axe-core rule (`a11y_image-alt`), so they are not
 * listed in CHECKS; the impact sets the severity (docs/decisions/rendering.md: critical → error,
 * serious → warning, moderate and minor → info).
 */
export { ACCESSIBILITY_PREFIX } from '@siteaudit/schema';
export const IMPACT_SEVERITY: Record<'critical' | 'serious' | 'moderate' | 'minor', Severity> = {
  critical: 'error',
  serious: 'warning',
  moderate: 'info',
  minor: 'info',
};

/** Thresholds of the catalogue: one module, shared with the docs and the mock (@siteaudit/schema). */
export { THRESHOLDS } from '@siteaudit/schema';
