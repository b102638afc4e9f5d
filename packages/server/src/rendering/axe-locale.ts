/**
 * axe-core's own texts of a rule in the reader's language. Accessibility findings are stored with
 * axe's English help (`<help>: 3 elements, img.hero, …`, crawler/page-record.ts); a French reader
 * gets the help axe-core ships in `locales/fr.json` for the same rule. A rule that locale does not
 * translate yet keeps axe's English text, which is axe's, not ours.
 */
import { createRequire } from 'node:module';
import type { Language } from '@siteaudit/schema';

interface RuleText {
  description: string;
  help: string;
}

const require = createRequire(import.meta.url);
const texts: Partial<Record<Language, Map<string, RuleText>>> = {};

/** The rule texts of one language, read once from the installed axe-core. */
function rules(language: Language): Map<string, RuleText> {
  let table = texts[language];
  if (!table) {
    table =
      language === 'en'
        ? new Map((require('axe-core') as { getRules(): (RuleText & { ruleId: string })[] }).getRules().map((r) => [r.ruleId, { description: r.description, help: r.help }]))
        : new Map(Object.entries((require('axe-core/locales/fr.json') as { rules: Record<string, RuleText> }).rules));
    texts[language] = table;
  }
  return table;
}

/** What axe says a rule checks (`Ensure <img> elements have alternative text…`), or undefined for a rule it does not know. */
export function axeRuleDescription(rule: string, language: Language): string | undefined {
  return (rules(language).get(rule) ?? rules('en').get(rule))?.description;
}

/** axe's short statement of a rule (`Images must have alternative text`) in `language`, or undefined for a rule it does not know. */
export function axeRuleHelp(rule: string, language: Language): string | undefined {
  return (rules(language).get(rule) ?? rules('en').get(rule))?.help;
}

/**
 * A finding's stored details in `language`: axe's help for the rule in that language, then the
 * element count and the selectors as they are. A text that does not start with the rule's English
 * help (an older axe release worded it otherwise) is returned unchanged.
 */
export function localiseAccessibilityDetails(rule: string, details: string, language: Language): string {
  const english = rules('en').get(rule)?.help;
  if (language === 'en' || !english || !details.startsWith(`${english}: `)) return details;
  const help = rules(language).get(rule)?.help ?? english;
  const rest = details.slice(english.length + 2).replace(/^(\d+) elements?\b/, (_m, n: string) => `${n} élément${n === '1' ? '' : 's'}`);
  return `${help} : ${rest}`;
}
