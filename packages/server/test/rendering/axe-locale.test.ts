/**
 * Accessibility findings in the reader's language: the details the crawler stores (axe's English
 * help, the count, the selectors) read in French with axe-core's own French help for the rule,
 * in the API's answers and in both reports (reports/issue-details.ts), and the advice of a
 * finding states the rule in the reader's language.
 */
import { describe, expect, it } from 'vitest';
import { accessibilityDetails } from '../../src/crawler/page/page-record.js';
import { localiseAccessibilityDetails } from '../../src/rendering/axe-locale.js';
import { fixFor } from '../../src/reports/fixes.js';
import { issueDetailsIn } from '../../src/reports/issue-details.js';

const imageAlt = accessibilityDetails({ rule: 'image-alt', impact: 'critical', help: 'Images must have alternative text', nodes: 4, targets: ['img.hero', '#logo', 'main > img', 'footer img'] });
const htmlLang = accessibilityDetails({ rule: 'html-has-lang', impact: 'serious', help: '<html> element must have a lang attribute', nodes: 1, targets: ['html'] });

describe('accessibility details in the reader’s language', () => {
  it('gives axe-core’s French help for the rule, the count in French and the selectors as they are', () => {
    expect(imageAlt).toBe('Images must have alternative text: 4 elements, img.hero, #logo, main > img (+1)');
    expect(issueDetailsIn('a11y_image-alt', imageAlt, 'fr')).toBe('Les images doivent avoir une alternative textuelle : 4 éléments, img.hero, #logo, main > img (+1)');
    expect(issueDetailsIn('a11y_html-has-lang', htmlLang, 'fr')).toBe('L’élément <html> doit avoir un attribut lang : 1 élément, html');
  });

  it('keeps the stored English text in English, and a text axe no longer words that way', () => {
    expect(issueDetailsIn('a11y_image-alt', imageAlt, 'en')).toBe(imageAlt);
    expect(localiseAccessibilityDetails('image-alt', 'Images need alt: 2 elements', 'fr')).toBe('Images need alt: 2 elements');
    expect(localiseAccessibilityDetails('no-such-rule', imageAlt, 'fr')).toBe(imageAlt);
  });

  it('leaves other checks to the catalogue’s templates', () => {
    expect(issueDetailsIn('thin_content', '115 words', 'fr')).toBe('115 mots');
    expect(issueDetailsIn('thin_content', null, 'fr')).toBeNull();
  });

  it('states the rule in the advice, in each language', () => {
    expect(fixFor('a11y_image-alt', 'accessibility', 'fr')).toMatch(/^Vérifier que les éléments <img> ont une alternative textuelle.* : corrigez les éléments signalés par la règle axe « image-alt »/);
    expect(fixFor('a11y_image-alt', 'accessibility', 'en')).toMatch(/^Ensure <img> elements have alternative text.*: fix the elements flagged by the axe rule "image-alt"/);
    expect(fixFor('a11y_not-a-rule', 'accessibility', 'fr')).toMatch(/^Corrigez les éléments signalés par la règle axe « not-a-rule »/);
  });
});
