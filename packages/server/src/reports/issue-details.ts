/**
 * An occurrence's details as every answer and report shows them: the catalogue's templates
 * (`localiseIssueDetails`, @siteaudit/schema) and, for accessibility findings, axe-core's own
 * translation of its rule help (rendering/axe-locale.ts).
 */
import { type Language } from '@siteaudit/schema';
import { localiseIssueDetails } from '@siteaudit/schema/rules';
import { localiseAccessibilityDetails } from '../rendering/axe-locale.js';
import { ACCESSIBILITY_PREFIX } from './catalogue.js';

export function issueDetailsIn<T extends string | null | undefined>(name: string, details: T, language: Language): T {
  if (typeof details === 'string' && name.startsWith(ACCESSIBILITY_PREFIX)) return localiseAccessibilityDetails(name.slice(ACCESSIBILITY_PREFIX.length), details, language) as T;
  return localiseIssueDetails(details, language);
}
