import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, quotaOf, resolvePlans } from '../../src/rules/plans.js';

describe('plans', () => {
  it('deep-merges plan overrides; a new plan starts from free and ranks last', () => {
    const plans = resolvePlans({ pro: { rateLimits: { minute: 5 } }, tiny: { api: 'read', limits: { 'projects.max': 2 } } });
    expect(plans.pro.rateLimits).toEqual({ minute: 5, day: 20_000 });
    expect(plans.pro.limits).toEqual(DEFAULT_PLANS.pro.limits);
    expect(plans.tiny).toMatchObject({ key: 'tiny', label: 'tiny', rank: 4, api: 'read', scheduleFrequencies: ['manual'] });
    expect(plans.tiny.limits['projects.max']).toBe(2);
    expect(plans.tiny.limits['crawls.monthly']).toBe(DEFAULT_PLANS.free.limits['crawls.monthly']);
    expect(DEFAULT_PLANS.pro.rateLimits.minute).toBe(120);
  });

  it('never shows a negative remaining quota', () => {
    expect(quotaOf(7, 5)).toEqual({ used: 7, limit: 5, remaining: 0 });
    expect(quotaOf(7, null)).toEqual({ used: 7, limit: null, remaining: null });
  });
});

describe('the log limit and the API access agree', () => {
  it('gives a log import limit only to plans whose tokens may write (an upload is a POST), as for webhooks', () => {
    for (const plan of Object.values(DEFAULT_PLANS)) {
      const uploads = plan.limits['logs.import_max_bytes'] !== 0;
      expect({ plan: plan.key, uploads }).toEqual({ plan: plan.key, uploads: plan.api === 'write' });
      if (plan.api !== 'write') expect(plan.limits['api.webhooks.max']).toBe(0);
    }
  });

  it('docs/plans.md shows the catalogue’s log limits', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../../docs/plans.md', import.meta.url), 'utf8');
    const header = doc.split('\n').find((l) => l.startsWith('| | `free`'))!;
    const keys = header.split('|').slice(2, -1).map((c) => c.trim().replace(/`/g, ''));
    const row = doc.split('\n').find((l) => l.startsWith('| `logs.import_max_bytes`'))!;
    const cells = row.split('|').slice(2, -1).map((c) => c.trim());
    const bytes = (cell: string) => {
      if (cell.startsWith('0')) return 0;
      const [n, unit] = cell.split(' ');
      return Number(n) * { MiB: 2 ** 20, GiB: 2 ** 30 }[unit as 'MiB' | 'GiB'];
    };
    expect(Object.fromEntries(keys.map((k, i) => [k, bytes(cells[i])]))).toEqual(Object.fromEntries(Object.values(DEFAULT_PLANS).map((p) => [p.key, p.limits['logs.import_max_bytes']])));
  });
});
