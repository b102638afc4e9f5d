/**
 * The fix advice lives with the catalogue (@siteaudit/schema), shared by the reports and the
 * recommendations read; here it gains, for accessibility findings, axe's own statement of the rule
 * in the reader's language (axe-core's locales, which only the server carries).
 */
import { ACCESSIBILITY_PREFIX, fixFor as catalogueFix } from '@siteaudit/schema/rules';
import { axeRuleDescription } from '../rendering/axe-locale.js';
import type { ExportLanguage } from './types.js';

export { axisFix, whyFor } from '@siteaudit/schema/rules';

/** What to do about a check that fired. */
export function fixFor(name: string, category: string, language: ExportLanguage): string {
  const rule = name.startsWith(ACCESSIBILITY_PREFIX) ? name.slice(ACCESSIBILITY_PREFIX.length) : null;
  return catalogueFix(name, category, language, rule === null ? null : axeRuleDescription(rule, language));
}
