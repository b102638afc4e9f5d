import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { causeDetails, mayBeTemplate, SECTION_MIN_PAGES, sectionOf, TEMPLATE_MIN_PAGES, templateCause, templatePattern, topCause } from '../../src/rules/template-patterns.js';
import { localiseIssueDetails } from '../../src/rules/issue-details.js';

describe('template patterns', () => {
  it('is one details value on more than half of the HTML pages', () => {
    expect(templatePattern(45, { details: 'no meta description', pages: 45 }, ['a', 'b', 'c', 'd'])).toEqual({ scope: 'site', section: null, pages: 45, share: 1, details: 'no meta description', examples: ['a', 'b', 'c'] });
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

  it('compares causes, not counts, and for a check about the page not the paths of the URLs it names', () => {
    expect(templateCause('page', '14 image(s): images/prev.png, images/next.png (+11)')).toBe(templateCause('page', '9 image(s): images/prev.png, images/next.png (+6)'));
    expect(templateCause('page', 'h2 followed by h4')).not.toBe(templateCause('page', 'h3 followed by h5'));
    expect(templateCause('page', 'canonical ignored: file URL file:///usr/share/doc/a.html')).toBe(templateCause('page', 'canonical ignored: file URL file:///usr/share/doc/b/c.html'));
    expect(templateCause('page', 'canonical https://www.sqlite.org/a.html is on another host')).not.toBe(templateCause('page', 'canonical https://mirror.example/a.html is on another host'));
    // A link's target is its cause.
    expect(templateCause('link', 'link to https://s.example/a: status 404')).not.toBe(templateCause('link', 'link to https://s.example/b: status 404'));
    const rows = [
      { details: 'canonical https://www.sqlite.org/a.html is on another host', pages: 1 },
      { details: 'canonical https://www.sqlite.org/b.html is on another host', pages: 1 },
      { details: 'canonical https://www.sqlite.org/c.html is on another host', pages: 1 },
      { details: 'canonical https://other.example/x is on another host', pages: 1 },
    ];
    expect(topCause('page', rows, 4)).toEqual({ details: 'canonical https://www.sqlite.org/a.html is on another host', pages: 3, variants: rows.slice(0, 3).map((r) => r.details) });
    expect(templatePattern(5, topCause('page', rows, 4), [])).toMatchObject({ pages: 3, share: 0.6 });
    expect(topCause('link', [], 0)).toBeNull();
  });

  it('shows a count that differs between the pages of a cause as the range it spans, in either language', () => {
    const rows = [
      { details: '113 links', pages: 5 },
      { details: '661 links', pages: 1 },
      { details: '240 links', pages: 2 },
    ];
    const cause = topCause('page', rows, 8)!;
    expect(cause).toMatchObject({ details: '113 links', pages: 8 });
    expect(causeDetails(cause, (d) => localiseIssueDetails(d, 'en'))).toBe('113–661 links');
    expect(causeDetails(cause, (d) => localiseIssueDetails(d, 'fr'))).toBe('113–661 liens');
    // Counts that agree stay as they are; only the one that varies becomes a range.
    const images = topCause('page', [
      { details: '3 image(s) without alt: /a.png, /b.png (+1)', pages: 4 },
      { details: '3 image(s) without alt: /a.png, /b.png (+1)', pages: 2 },
      { details: '7 image(s) without alt: /a.png, /b.png (+5)', pages: 1 },
    ], 7)!;
    expect(causeDetails(images, (d) => localiseIssueDetails(d, 'fr'))).toBe('3–7 image(s) sans alt : /a.png, /b.png (+1–5)');
    expect(causeDetails({ details: 'no <h1>', variants: ['no <h1>'] }, (d) => d)).toBe('no <h1>');
    expect(causeDetails({ details: '2 <h1> tags', variants: ['2 <h1> tags'] }, (d) => localiseIssueDetails(d, 'fr'))).toBe('2 balises <h1>');
  });

  it('reads a section as the first path folder, and needs enough pages in it', () => {
    expect(sectionOf('https://example.com/docs/a/b.html')).toBe('/docs/');
    expect(sectionOf('https://example.com/docs/')).toBe('/docs/');
    expect(sectionOf('https://example.com/about')).toBe('/');
    expect(sectionOf('https://example.com')).toBe('/');
    expect(sectionOf('https://example.com/c3ref/x.html?y=1#z')).toBe('/c3ref/');
    expect(sectionOf('not a url')).toBeNull();
    expect(templatePattern(SECTION_MIN_PAGES, { details: 'no <h1>', pages: SECTION_MIN_PAGES }, [], '/docs/')).toMatchObject({ scope: 'section', section: '/docs/', share: 1 });
    expect(templatePattern(SECTION_MIN_PAGES - 1, { details: 'no <h1>', pages: SECTION_MIN_PAGES - 1 }, [], '/docs/')).toBeNull();
  });
});
