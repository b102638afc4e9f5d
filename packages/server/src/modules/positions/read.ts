/**
 * GET …/positions: the tracker, the period, a summary, every listed keyword with its latest
 * position and deltas, and the pool quota (rules in docs/decisions/positions.md). The arithmetic
 * is `readListedKeywords` of `@siteaudit/schema`, which the mock uses too; here are the reads.
 */
import type { Knex } from 'knex';
import { type PeriodPreset, type Positions } from '@siteaudit/schema';
import { POSITION_DELTA_DAYS, addDays, positionsPeriod, quotaOf, readListedKeywords, type ListedKeyword, type Plan } from '@siteaudit/schema/rules';
import { json } from '../../store/database.js';
import { LISTED, earliestWithin, latestOnOrBefore, onDays, poolUsed, type TrackedKeywordRow, type TrackerRow } from './store.js';

export async function readPositions(
  knex: Knex,
  /** `serpConfigured`: whether a SERP provider measures positions (`providers.serp`). */
  input: { projectId: string; teamId: string; plan: Plan; preset: PeriodPreset; now: Date; serpConfigured: boolean },
): Promise<Positions> {
  const { projectId } = input;
  const period = positionsPeriod(input.preset, input.now);
  const tracker = (await knex('position_trackers').where({ project_id: projectId }).first()) as TrackerRow | undefined;
  const rows = (await knex('tracked_keywords').where({ project_id: projectId }).whereIn('state', LISTED)) as TrackedKeywordRow[];

  const latest = await latestOnOrBefore(knex, projectId, period.to);
  const beforeStart = await latestOnOrBefore(knex, projectId, period.from);
  const firstInPeriod = await earliestWithin(knex, projectId, period.from, period.to);
  const deltaDays = [...latest.values()].flatMap((r) => POSITION_DELTA_DAYS.map((d) => addDays(r.date, -d)));
  const earlier = await onDays(knex, projectId, deltaDays);

  const listed: ListedKeyword[] = rows.map((row) => {
    const current = latest.get(row.keyword);
    return {
      keyword: row.keyword,
      active: row.state === 'tracked',
      latest: current && { date: current.date, position: current.position, url: current.url, serp_features: json<string[]>(current.serp_features, []) },
      start: beforeStart.get(row.keyword) ?? firstInPeriod.get(row.keyword),
      measuredOn: (day) => earlier.get(`${row.keyword}\u0000${day}`),
      search_volume: row.search_volume,
      keyword_difficulty: row.keyword_difficulty,
      search_intent: row.search_intent,
    };
  });
  const read = readListedKeywords(listed, tracker !== undefined);
  const used = await poolUsed(knex, input.teamId);

  return {
    project_id: projectId,
    // Keywords waiting for a measurement no provider will make: the read says what is missing
    // (docs/decisions/positions.md, "Without a SERP provider"), not that one is coming.
    status: read.status === 'pending' && !input.serpConfigured ? 'unconfigured' : read.status,
    tracker: tracker
      ? { location: tracker.location, country: tracker.country, language: tracker.language, device: tracker.device, active: read.activeKeywords > 0, last_tracked_on: read.lastTrackedOn }
      : null,
    period,
    summary: read.summary,
    keywords: read.keywords,
    quota: quotaOf(used, input.plan.limits['positions.tracked_keywords']),
  };
}
