import { describe, expect, it } from 'vitest';
import { apiAccess, usageAnswer } from '../../src/rules/account.js';
import { decideRate } from '../../src/rules/rate-limits.js';

describe('account answers', () => {
  it('says what the plan lets a token do', () => {
    expect(apiAccess({ api: 'write' })).toEqual(['read', 'write']);
    expect(apiAccess({ api: 'read' })).toEqual(['read']);
    expect(apiAccess({ api: 'none' })).toEqual([]);
  });

  it('shows both rate windows in cost units, and the quotas as given', () => {
    const { states } = decideRate({ minute: 3, day: 40 }, 2, { minute: 10, day: null }, new Date('2026-01-15T10:00:20Z'));
    const quotas = [{ key: 'projects.max', used: 1, limit: 3, remaining: 2 }] as never;
    expect(usageAnswer(states, quotas)).toEqual({
      rate_limits: [
        { window: 'minute', window_seconds: 60, unit: 'cost', limit: 10, used: 5, remaining: 5, resets_in_seconds: 40 },
        { window: 'day', window_seconds: 86_400, unit: 'cost', limit: null, used: 42, remaining: null, resets_in_seconds: 50_380 },
      ],
      quotas,
    });
  });
});
