import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mayBeTemplate, TEMPLATE_MIN_PAGES, templatePattern } from '../../src/rules/template-patterns.js';

describe('template patterns', () => {
  it('is one details value on more than half of the HTML pages', () => {
    expect(templatePattern(45, { details: 'no meta description', pages: 45 }, ['a', 'b', 'c', 'd'])).toEqual({ scope: 'site', pages: 45, share: 1, details: 'no meta description', examples: ['a', 'b', 'c'] });
    expect(templatePattern(758, { details: 'no lang on <html>', pages: 380 }, ['a'])).toMatchObject({ pages: 380, share: 0.501 });
    // Half exactly is not most; a tiny site has no template to speak of.
    expect(templatePattern(10, { details: 'x', pages: 5 }, [])).toBeNull();
    expect(templatePattern(TEMPLATE_MIN_PAGES - 1, { details: 'x', pages: 3 }, [])).toBeNull();
    expect(templatePattern(10, null, [])).toBeNull();
  });

  it('only a check on more than half of the pages may hold one, and a pattern never claims more pages than the site has (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 20_000 }), (html, pages) => {
        const p = templatePattern(html, { details: 'd', pages }, []);
        if (p) expect(p.share).toBeLessThanOrEqual(1);
        expect(p !== null).toBe(mayBeTemplate(html, pages));
      }),
    );
  });
});
