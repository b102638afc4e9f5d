/**
 * The one place the reports read the issue catalogue (check labels). Kept to a single import so it
 * can follow the catalogue wherever it lives (@siteaudit/schema), with its guide (why, how to fix); the accessibility prefix comes
 * from the crawler's checks module, not its index, which loads the whole crawler (about 10 MB).
 */
import { CHECK_GUIDE, CHECKS, type CheckGuide } from '@siteaudit/schema/rules';
import { ACCESSIBILITY_PREFIX } from '../crawler/index.js';
import type { ExportLanguage } from './types.js';

const catalogue = CHECKS as Record<string, { label: Record<ExportLanguage, string> } | undefined>;

/** The catalogue's label of a check, or undefined for a name it does not list. */
export function catalogueLabel(name: string, language: ExportLanguage): string | undefined {
  return catalogue[name]?.label[language];
}

/** The catalogue's why and how to fix of a check, or undefined for a name it does not list. */
export function catalogueGuide(name: string): CheckGuide | undefined {
  return Object.hasOwn(CHECK_GUIDE, name) ? CHECK_GUIDE[name as keyof typeof CHECK_GUIDE] : undefined;
}

/** Accessibility findings carry their axe rule after this prefix (`a11y_image-alt`). */
export { ACCESSIBILITY_PREFIX };
