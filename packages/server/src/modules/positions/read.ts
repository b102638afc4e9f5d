/**
 * GET …/positions: the tracker, the period, a summary, every listed keyword with its latest
 * position and deltas, and the pool quota (rules in docs/decisions/positions.md).
 */
import type { Knex } from 'knex';
import type { Plan, Positions } from '@siteaudit/schema';
import { json } from '../../store/database.js';
import { addDays, periodEnding, type PeriodPreset } from './dates.js';
import { LISTED, earliestWithin, latestOnOrBefore, onDays, poolUsed, type PositionRow, type TrackedKeywordRow, type TrackerRow } from './store.js';
import { visibilityPercent } from './visibility.js';

const DELTA_DAYS = [1, 7, 30] as const;

export async function readPositions(
  knex: Knex,
  input: { projectId: string; teamId: string; plan: Plan; preset: PeriodPreset; today: string },
): Promise<Positions> {
  const { projectId } = input;
  const period = periodEnding(input.preset, input.today);
  const tracker = (await knex('position_trackers').where({ project_id: projectId }).first()) as TrackerRow | undefined;
  const rows = ((await knex('tracked_keywords').where({ project_id: projectId }).whereIn('state', LISTED)) as TrackedKeywordRow[]).sort((a, b) =>
    a.keyword.localeCompare(b.keyword),
  );

  const latest = await latestOnOrBefore(knex, projectId, period.to);
  const beforeStart = await latestOnOrBefore(knex, projectId, period.from);
  const firstInPeriod = await earliestWithin(knex, projectId, period.from, period.to);
  const deltaDays = [...latest.values()].flatMap((r) => DELTA_DAYS.map((d) => addDays(r.date, -d)));
  const earlier = await onDays(knex, projectId, deltaDays);

  /** Positive means the keyword moved up the page, as rank trackers show it. */
  const delta = (current: PositionRow | undefined, days: number): number | null => {
    if (!current || current.position === null) return null;
    const then = earlier.get(`${current.keyword}\u0000${addDays(current.date, -days)}`);
    return then && then.position !== null ? then.position - current.position : null;
  };

  const keywords = rows.map((row) => {
    const current = latest.get(row.keyword);
    return {
      keyword: row.keyword,
      active: row.state === 'tracked',
      measured: current !== undefined,
      position: current?.position ?? null,
      url: current?.position != null ? current.url : null,
      delta_1d: delta(current, 1),
      delta_7d: delta(current, 7),
      delta_30d: delta(current, 30),
      search_volume: row.search_volume,
      keyword_difficulty: row.keyword_difficulty,
      search_intent: row.search_intent,
      serp_features: current ? json<string[]>(current.serp_features, []) : [],
    };
  });

  const measured = keywords.filter((k) => k.measured);
  const ranking = measured.filter((k) => k.position !== null);
  let improved = 0;
  let declined = 0;
  let entered = 0;
  let exited = 0;
  for (const k of measured) {
    const current = latest.get(k.keyword)!;
    // The position at the start of the period: the last one before it, else the first within it.
    const start = beforeStart.get(k.keyword) ?? firstInPeriod.get(k.keyword);
    if (!start || start.date === current.date) continue;
    if (start.position === null && current.position !== null) entered++;
    else if (start.position !== null && current.position === null) exited++;
    else if (start.position !== null && current.position !== null) {
      if (current.position < start.position) improved++;
      else if (current.position > start.position) declined++;
    }
  }

  const active = rows.filter((r) => r.state === 'tracked').length;
  const status: Positions['status'] = !tracker ? 'unconfigured' : active === 0 ? 'paused' : measured.some((k) => k.active) ? 'active' : 'pending';
  const listed = new Set(rows.map((r) => r.keyword));
  const lastTracked = [...latest.values()].filter((r) => listed.has(r.keyword)).map((r) => r.date).sort().pop() ?? null;
  const used = await poolUsed(knex, input.teamId);
  const limit = input.plan.limits['positions.tracked_keywords'];

  return {
    project_id: projectId,
    status,
    tracker: tracker
      ? { location: tracker.location, country: tracker.country, language: tracker.language, device: tracker.device, active: active > 0, last_tracked_on: lastTracked }
      : null,
    period,
    summary: {
      average_position: ranking.length ? Math.round((10 * ranking.reduce((n, k) => n + k.position!, 0)) / ranking.length) / 10 : null,
      ranking_keywords: ranking.length,
      measured_keywords: measured.length,
      tracked_keywords: keywords.length,
      top3: ranking.filter((k) => k.position! <= 3).length,
      top10: ranking.filter((k) => k.position! <= 10).length,
      visibility_percent: visibilityPercent(measured.map((k) => k.position)),
      improved,
      declined,
      entered,
      exited,
    },
    keywords,
    quota: { used, limit, remaining: limit === null ? null : Math.max(0, limit - used) },
  };
}
