/**
 * Pillar formulas (docs/decisions/scorecard.md). The crawl pillars reuse the technique health
 * formula on the checks they cover (`scoreOf`, `checksAxis` of `@siteaudit/schema/rules`), so a
 * sub-score means the same thing everywhere: 100 × exp(−Σ weight(severity) × √share of pages
 * affected). Search Console acquisition has its own formula, here: clicks against the clicks
 * expected at the positions held, and the impressions trend.
 */

export interface Axis {
  key: string;
  score: number | null;
  weight: number;
}

// ------------------------------------------------------------------------------ acquisition

/**
 * Expected organic click-through rate by position, in percent, for positions 1 to 10: Sistrix's
 * 2020 study (80 million keywords) gives 28.5, 15.7, 11.0 and 8.0 % for 1 to 4 and 2.5 % at 10;
 * 5 to 9 follow the same decline. Page two is under 1 % per position in that study: 1 % at 11
 * down to 0.5 % at 20, 0.5 % beyond. A fractional position (Search Console averages) is
 * interpolated.
 */
const CTR_TOP10 = [28.5, 15.7, 11.0, 8.0, 7.2, 5.1, 4.0, 3.2, 2.8, 2.5];

export function expectedCtr(position: number): number {
  if (!Number.isFinite(position) || position <= 1) return CTR_TOP10[0] / 100;
  if (position <= 10) {
    const i = Math.floor(position) - 1;
    const next = CTR_TOP10[Math.min(9, i + 1)];
    return (CTR_TOP10[i] + (next - CTR_TOP10[i]) * (position - Math.floor(position))) / 100;
  }
  if (position <= 11) return (2.5 - (position - 10) * 1.5) / 100;
  if (position <= 20) return (1 - ((position - 11) / 9) * 0.5) / 100;
  return 0.5 / 100;
}

export interface SearchDay {
  date: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** Days of data per window: Search Console's usual 28-day view. */
export const ACQUISITION_WINDOW_DAYS = 28;
export const ACQUISITION_WEIGHTS = { ctr: 0.6, trend: 0.4 } as const;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The acquisition pillar from the daily series: over the latest 28 days of data,
 * - `ctr` = 100 × min(1, clicks / expected clicks), expected clicks being Σ impressions ×
 *   expectedCtr(position) day by day: getting the clicks the positions held should bring;
 * - `trend` = 100 × min(1, impressions / impressions of the 28 days before): visibility kept or
 *   growing scores 100, a loss costs its share; null without the earlier 28 days.
 * The score is the weighted mean of the axes that exist (ctr 0.6, trend 0.4). Null when the
 * window has no impression.
 */
export function acquisitionScore(days: SearchDay[]): { score: number; axes: Axis[]; to: string } | null {
  if (days.length === 0) return null;
  const to = days.reduce((m, d) => (d.date > m ? d.date : m), days[0].date);
  const from = addDays(to, -(ACQUISITION_WINDOW_DAYS - 1));
  const previousFrom = addDays(from, -ACQUISITION_WINDOW_DAYS);
  const recent = days.filter((d) => d.date >= from && d.date <= to);
  const previous = days.filter((d) => d.date >= previousFrom && d.date < from);
  const impressions = recent.reduce((n, d) => n + d.impressions, 0);
  if (impressions === 0) return null;
  const clicks = recent.reduce((n, d) => n + d.clicks, 0);
  const expected = recent.reduce((n, d) => n + d.impressions * expectedCtr(d.position), 0);
  const ctr = Math.round(100 * Math.min(1, expected > 0 ? clicks / expected : 1));
  const before = previous.reduce((n, d) => n + d.impressions, 0);
  const trend = before > 0 ? Math.round(100 * Math.min(1, impressions / before)) : null;
  const weights = trend === null ? { ctr: 1, trend: 0 } : ACQUISITION_WEIGHTS;
  const score = Math.round(ctr * weights.ctr + (trend ?? 0) * weights.trend);
  return {
    score,
    to,
    axes: [
      { key: 'ctr', score: ctr, weight: weights.ctr },
      { key: 'trend', score: trend, weight: weights.trend },
    ],
  };
}
