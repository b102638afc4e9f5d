/**
 * The rate-limit windows only move forward (docs/decisions/rate-limits.md). A call reads the clock
 * when it arrives and reaches the counters after authentication; at a window's boundary, a call
 * that read the clock just before it can be counted after calls of the new window (and a process
 * whose clock lags another's on the same PostgreSQL database does the same). Such a call set the
 * counters back to the window that had ended, and the new window's units were forgotten: a team
 * got its limit twice in one minute. The manual clock steps back to play that call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { manualClock } from '../../../../tests/support/http.js';

const LIMIT = 10;
const time = manualClock('2025-03-12T10:00:30.000Z');
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock: time.clock, plans: { pro: { rateLimits: { minute: LIMIT, day: null } } } });
});
afterAll(async () => {
  await h?.close();
});

/** Sends `n` reads at once; the number answered 200. */
async function burst(token: string, n: number, headers: Record<string, string> = {}): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: n }, () => h.call('GET', '/v1/projects', { token, headers })));
  await Promise.all(answers.map((a) => a.body?.cancel()));
  return answers.map((a) => a.status);
}
const ok = (statuses: number[]) => statuses.filter((s) => s === 200).length;

describe('a call counted after the boundary it read the clock before', () => {
  it('is charged in the window that has begun, which never passes more than its limit', async () => {
    const token = await h.tokenFor({ team: 'late-take', plan: 'pro' });
    time.set('2025-03-12T10:01:00.500Z');
    const first = await burst(token, LIMIT + 5);
    time.set('2025-03-12T10:00:59.900Z');
    const late = await burst(token, 1);
    time.set('2025-03-12T10:01:01.000Z');
    const second = await burst(token, LIMIT + 5);
    expect(ok(first)).toBe(LIMIT);
    // The minute is spent: the late call is refused, and so is every call after it in the minute.
    expect(late).toEqual([429]);
    expect(ok(second)).toBe(0);
  });

  it('answered 304, gives back nothing to the new window', async () => {
    const token = await h.tokenFor({ team: 'late-refund', plan: 'pro' });
    time.set('2025-03-12T10:05:00.500Z');
    const read = await h.call('GET', '/v1/projects', { token });
    const etag = read.headers.get('etag')!;
    await read.body?.cancel();
    time.set('2025-03-12T10:06:00.500Z');
    const first = await burst(token, 6);
    time.set('2025-03-12T10:05:59.900Z');
    expect(await burst(token, 1, { 'if-none-match': etag })).toEqual([304]);
    time.set('2025-03-12T10:06:01.000Z');
    const second = await burst(token, LIMIT + 5);
    expect(ok(first)).toBe(6);
    // The 304 was charged in the new window; its refund, dated in the old one, is not taken from
    // the new one (the old one's counters are gone). 6 + 1 + 3 = the limit.
    expect(ok(second)).toBe(LIMIT - 7);
  });
});
