import { describe, expect, it } from 'vitest';
import { CHECK_GUIDE } from '../../src/rules/check-guide.js';
import { axisFix, fixFor, whyFor } from '../../src/rules/fix-advice.js';

describe('fix advice', () => {
  it('gives the guide’s advice for a catalogued check, in the report’s language', () => {
    expect(fixFor('http_5xx', 'http', 'en')).toBe(CHECK_GUIDE.http_5xx.fix.en);
    expect(fixFor('http_5xx', 'http', 'fr')).toBe(CHECK_GUIDE.http_5xx.fix.fr);
    expect(whyFor('http_5xx', 'fr')).toBe(CHECK_GUIDE.http_5xx.why.fr);
  });

  it('points an accessibility finding to its axe rule, with axe’s statement when known', () => {
    expect(fixFor('a11y_image-alt', 'accessibility', 'en')).toBe('Fix the elements flagged by the axe rule "image-alt" (dequeuniversity.com/rules/axe/image-alt).');
    expect(fixFor('a11y_image-alt', 'accessibility', 'fr', 'Les images ont un texte alternatif')).toBe(
      'Les images ont un texte alternatif : corrigez les éléments signalés par la règle axe « image-alt » (dequeuniversity.com/rules/axe/image-alt).',
    );
  });

  it('falls back to the category’s advice, then to a general one; never reads inherited names', () => {
    expect(fixFor('not_a_check', 'titles', 'en')).toBe('Write a unique title and description per page.');
    expect(fixFor('not_a_check', 'nowhere', 'fr')).toBe('Examinez les pages concernées.');
    expect(fixFor('constructor', 'nowhere', 'en')).toBe('Review the affected pages.');
    expect(whyFor('toString', 'en')).toBeUndefined();
  });

  it('advises on the axes that are not categories only', () => {
    expect(axisFix('pagespeed', 'en')).toMatch(/Lighthouse/);
    expect(axisFix('ctr', 'fr')).toMatch(/clics/);
    expect(axisFix('titles', 'en')).toBeUndefined();
  });
});
