import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../../src/rules/plans.js';
import { defaultCampaignBounds, firstFreeSlug, normaliseSiteUrl, slugify } from '../../src/rules/project-setup.js';

describe('project setup', () => {
  it('makes slugs and the default campaign budget', () => {
    expect(slugify('Mon Été Café')).toBe('mon-ete-cafe');
    expect(slugify('***')).toBe('project');
    expect(firstFreeSlug('a', new Set(['a', 'a-2']))).toBe('a-3');
    expect(firstFreeSlug('b', new Set(['a']))).toBe('b');
    expect(defaultCampaignBounds(DEFAULT_PLANS.free)).toEqual({ max_depth: 5, max_urls: 100 });
    expect(defaultCampaignBounds(DEFAULT_PLANS.agency)).toEqual({ max_depth: 5, max_urls: 500 });
  });

  it('gives a slug of lowercase ASCII words joined by single dashes, whatever the name (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (name) => {
        expect(slugify(name)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(slugify(name).length).toBeLessThanOrEqual(80);
      }),
    );
  });

  it('stores the site URL lowercased with its root path, fragment dropped', () => {
    expect(normaliseSiteUrl(' HTTPS://Example.COM#top ').href).toBe('https://example.com/');
  });
});
