/**
 * The one place the reports read the issue catalogue (check labels). Kept to a single import so it
 * can follow the catalogue wherever it lives (@siteaudit/schema); the accessibility prefix comes
 * from the crawler's checks module, not its index, which loads the whole crawler (about 10 MB).
 */
import { CHECKS } from '@siteaudit/schema';
import { ACCESSIBILITY_PREFIX } from '../crawler/checks.js';
import type { ExportLanguage } from './types.js';

const catalogue = CHECKS as Record<string, { label: Record<ExportLanguage, string> } | undefined>;

/** The catalogue's label of a check, or undefined for a name it does not list. */
export function catalogueLabel(name: string, language: ExportLanguage): string | undefined {
  return catalogue[name]?.label[language];
}

/** Accessibility findings carry their axe rule after this prefix (`a11y_image-alt`). */
export { ACCESSIBILITY_PREFIX };
