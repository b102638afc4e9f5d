/**
 * Per-team rate counters in memory (docs/decisions/rate-limits.md): both windows of each team,
 * rolled over on the given clock. One process counts exactly with them (JavaScript runs each call
 * to completion): the server's SQLite default and the mock. A call is checked against both
 * windows before either is charged, so a refused call costs nothing.
 */
import { RATE_WINDOWS, RATE_WINDOW_SECONDS, decideRate, rateWindowStart, rateWindowStates, type RateDecision, type RateLimits, type RateWindow, type RateWindowState } from './rate-limits.js';

type Windows = Record<RateWindow, { start: number; used: number }>;

export class MemoryRateCounters {
  private readonly teams = new Map<string, Windows>();

  private current(teamId: string, now: Date): Windows {
    let entry = this.teams.get(teamId);
    if (!entry) {
      entry = { minute: { start: 0, used: 0 }, day: { start: 0, used: 0 } };
      this.teams.set(teamId, entry);
    }
    // A window only moves forward: a call that read the clock before the boundary and reaches
    // the counters after it counts in the window that has begun, instead of starting the one that
    // ended over again and forgetting the new one's units. Such a call is late by moments; a clock
    // set back by more than a window (the mock's, a test's) starts afresh.
    for (const w of RATE_WINDOWS) {
      const start = rateWindowStart(w, now);
      if (start > entry[w].start || start < entry[w].start - RATE_WINDOW_SECONDS[w] * 1000) entry[w] = { start, used: 0 };
    }
    return entry;
  }

  /** Charges `cost` to every window if it fits all of them, else charges nothing. */
  take(teamId: string, cost: number, limits: RateLimits, now: Date): RateDecision {
    const entry = this.current(teamId, now);
    const decision = decideRate({ minute: entry.minute.used, day: entry.day.used }, cost, limits, now);
    if (decision.ok) for (const w of RATE_WINDOWS) entry[w].used += cost;
    return decision;
  }

  /** Gives units back (a 304 costs nothing). */
  refund(teamId: string, cost: number, now: Date): void {
    const entry = this.current(teamId, now);
    // Units charged in a window that has ended since are not taken from the one that followed.
    for (const w of RATE_WINDOWS) {
      if (entry[w].start === rateWindowStart(w, now)) entry[w].used = Math.max(0, entry[w].used - cost);
    }
  }

  /** Both windows now, without charging. */
  peek(teamId: string, limits: RateLimits, now: Date): RateWindowState[] {
    const entry = this.current(teamId, now);
    return rateWindowStates({ minute: entry.minute.used, day: entry.day.used }, limits, now);
  }
}
