import { describe, expect, it } from 'vitest';
import { CATEGORY_TITLES } from '../../src/rules/checks-reference.js';
import { CHECKS, SEVERITY_RANK } from '../../src/rules/issue-catalogue.js';

describe('the issue catalogue', () => {
  it('names every check with a stable snake_case machine name, a known severity and category, and two distinct labels', () => {
    for (const [name, check] of Object.entries(CHECKS)) {
      expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(Object.keys(SEVERITY_RANK)).toContain(check.severity);
      expect(Object.keys(CATEGORY_TITLES)).toContain(check.category);
      expect(check.label.fr, name).not.toBe(check.label.en);
    }
  });

  it('ranks errors first, then warnings, then infos', () => {
    expect(['info', 'error', 'warning'].sort((a, b) => SEVERITY_RANK[a as 'info'] - SEVERITY_RANK[b as 'info'])).toEqual(['error', 'warning', 'info']);
  });

  it('writes large numbers in each language’s way, the same on every runtime', () => {
    expect(CHECKS.sitemap_too_large.label.en).toContain('50,000 URLs');
    expect(CHECKS.sitemap_too_large.label.fr).toContain('50\u00a0000 URL');
  });
});
