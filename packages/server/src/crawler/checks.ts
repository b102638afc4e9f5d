/**
 * The crawler's side of the audit catalogue (docs/health-score.md): the catalogue itself
 * (severity, category, labels) is shared with the mock in `@siteaudit/schema`; here are the
 * crawler's agent lists, accessibility mapping and thresholds.
 */
import type { Severity } from './types.js';

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

/** Thresholds from the catalogue, in one place so tests and docs agree. */
export const THRESHOLDS = {
  titleMax: 60,
  titleMin: 20,
  descriptionMin: 70,
  descriptionMax: 160,
  thinWords: 200,
  maxDepth: 4,
  maxLinks: 100,
  altMax: 100,
  htmlBytes: 2 * 1024 * 1024,
  imageBytes: 500 * 1024,
  slowMs: 800,
  /** Lighthouse mobile performance score (0..100) under which lighthouse_mobile_slow is raised. */
  lighthouseMobileMin: 50,
  /** Below this many words a simhash says little; such pages are left out of near-duplicates. */
  nearDuplicateMinWords: 50,
} as const;
