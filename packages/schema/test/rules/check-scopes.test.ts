import { describe, expect, it } from 'vitest';
import { checkScope } from '../../src/rules/check-scopes.js';
import { CHECKS, type CheckName } from '../../src/rules/issue-catalogue.js';

describe('check scopes', () => {
  it('gives every check a scope and a unit; the site-wide checks of the catalogue are site-scoped', () => {
    for (const name of Object.keys(CHECKS) as CheckName[]) {
      const row = checkScope(name);
      expect(row.unit.length, name).toBeGreaterThan(5);
      expect((CHECKS[name] as { basis?: string }).basis === 'site', name).toBe(row.scope === 'site');
    }
  });

  it('names the limits the crawler reads within', () => {
    expect(checkScope('anchor_text_generic').cap).toContain('5,000');
    expect(checkScope('hreflang_no_return').cap).toContain('300');
    expect(checkScope('broken_internal_link').scope).toBe('link');
    expect(checkScope('title_duplicate').scope).toBe('group');
  });

  it('scopes an accessibility finding, which the catalogue does not list, as one per page', () => {
    // An axe rule's finding (a11y_label): the issue summary and every export of a crawl with
    // accessibility checks read its scope.
    expect(checkScope('a11y_label').scope).toBe('page');
  });
});
