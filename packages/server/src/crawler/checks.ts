/**
 * The crawler's side of the audit catalogue (docs/health-score.md): the catalogue itself
 * (severity, category, labels) is shared with the mock in `@siteaudit/schema`; here are the
 * crawler's agent lists, accessibility mapping and thresholds.
 */
import type { Severity } from './types.js';

export { CHECKS, type CheckCategory, type CheckDefinition, type CheckName } from '@siteaudit/schema';

/** Search and answer agents: blocking them removes the site from AI answers (error). */
export const AI_SEARCH_AGENTS = ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Claude-User', 'Claude-SearchBot'] as const;
/** Training crawlers: blocking them is a legitimate choice, reported as info. */
export const AI_TRAINING_CRAWLERS = ['GPTBot', 'ClaudeBot', 'Google-Extended', 'CCBot', 'Applebot-Extended'] as const;

/**
 * Accessibility findings are named after their axe-core rule (`a11y_image-alt`), a set that grows
 * with axe releases, so they are not listed in CHECKS; the impact sets the severity
 * (docs/decisions/rendering.md: critical → error, serious → warning, moderate and minor → info).
 */
export const ACCESSIBILITY_PREFIX = 'a11y_';
export const IMPACT_SEVERITY: Record<'critical' | 'serious' | 'moderate' | 'minor', Severity> = {
  critical: 'error',
  serious: 'warning',
  moderate: 'info',
  minor: 'info',
};

/** Thresholds of the catalogue: one module, shared with the docs and the mock (@siteaudit/schema). */
export { THRESHOLDS } from '@siteaudit/schema';
