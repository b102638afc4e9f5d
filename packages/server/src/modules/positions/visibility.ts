/**
 * Visibility: the share of the clicks the keywords would get if every one ranked first, from a
 * published organic CTR curve (docs/decisions/positions.md). SISTRIX, "Why (almost) everything
 * you knew about Google CTR is no longer valid" (2020, 80 million keywords): average CTR of
 * positions 1 to 10. The study measured well under 1 % on page two without per-position values,
 * so positions past 10 weigh 0 rather than a number we would make up.
 */
export const CTR_CURVE_PERCENT = [28.5, 15.7, 11.0, 8.0, 7.2, 5.1, 4.0, 3.2, 2.8, 2.5] as const;

/** Weight of a position, position 1 = 1; 0 outside the first page or the top 100. */
export function visibilityWeight(position: number | null): number {
  if (position === null || position < 1 || position > CTR_CURVE_PERCENT.length) return 0;
  return CTR_CURVE_PERCENT[position - 1] / CTR_CURVE_PERCENT[0];
}

/** Mean weight over the measured keywords, in percent with two decimals; 0 when none is measured. */
export function visibilityPercent(positions: (number | null)[]): number {
  if (positions.length === 0) return 0;
  const total = positions.reduce<number>((sum, p) => sum + visibilityWeight(p), 0);
  return Math.round((10_000 * total) / positions.length) / 100;
}
