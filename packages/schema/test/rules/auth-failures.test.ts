import { describe, expect, it } from 'vitest';
import { recordAuthFailure, type AuthFailureCount } from '../../src/rules/auth-failures.js';

const at = (time: string) => new Date(`2026-01-15T10:${time}Z`);

describe('failed authentications per address (docs/decisions/rate-limits.md)', () => {
  it('counts failures and refuses the one past the limit until the minute ends', () => {
    let count: AuthFailureCount | undefined;
    for (let i = 0; i < 3; i++) {
      const r = recordAuthFailure(count, 3, at('00:10'));
      expect(r.refusal).toBeNull();
      count = r.count;
    }
    const refused = recordAuthFailure(count, 3, at('00:45'));
    expect(refused.refusal?.extras).toMatchObject({ window: 'minute', retry_after: 15, upgrade_to: null });
    expect(refused.refusal?.headers).toEqual({ 'Retry-After': '15' });
    expect(refused.count).toEqual(count);
  });

  it('starts counting again in the next minute', () => {
    const full = { start: at('00:00').getTime(), failures: 3 };
    expect(recordAuthFailure(full, 3, at('01:00'))).toEqual({ count: { start: at('01:00').getTime(), failures: 1 }, refusal: null });
  });

  it('never refuses without a limit, and always asks to wait at least a second', () => {
    expect(recordAuthFailure({ start: at('00:00').getTime(), failures: 1e6 }, null, at('00:59')).refusal).toBeNull();
    expect(recordAuthFailure({ start: at('00:00').getTime(), failures: 1 }, 1, new Date('2026-01-15T10:00:59.999Z')).refusal?.extras.retry_after).toBe(1);
  });
});
