/**
 * Rank-tracking jobs on the durable runner: the live check queued by the check operation, the
 * daily run of each tracker, and the keyword-data lookup. Every measurement is one row per
 * keyword and day in `keyword_positions` (a later check the same day replaces it).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { addDays, isoDay } from '@siteaudit/schema/rules';
import type { Providers } from '../../providers/index.js';
import type { Services } from '../../services.js';
import type { TrackedKeywordRow, TrackerRow } from './store.js';
import { throwIfAborted } from '../../abort.js';
import { transaction } from '../../store/retry.js';
import { claimDailyRun, scheduleDailyRun, type DailyRun } from '../../jobs/daily-run.js';
import { defineJobHandler, type ModuleJob } from '../module.js';
import { POSITIONS_CHECK, POSITIONS_DAILY, POSITIONS_KEYWORD_DATA } from './jobs.js';
import { projectById } from '../projects/reads.js';

/** Why a check measured nothing when no SERP provider is configured (kept on the check and the tracker). */
export const NO_SERP_PROVIDER = 'serp_provider_unconfigured';
/** Keyword data is refreshed by the daily run once it is older than this. */
const KEYWORD_DATA_MAX_AGE_DAYS = 30;


/** The tracker's daily run: `position_trackers.next_run_on` holds its next day. */
const DAILY_RUN: DailyRun = { table: 'position_trackers', column: 'next_run_on', job: POSITIONS_DAILY };

type Outcome = { status: 'done' } | { status: 'skipped' | 'failed'; reason: string };

/** Schedules the tracker's next daily run at midnight UTC starting `day`, in the caller's transaction. */
export async function scheduleDaily(services: Services, trx: Knex.Transaction, projectId: string, day: string): Promise<void> {
  await scheduleDailyRun(services, trx, DAILY_RUN, projectId, day);
}

export function positionJobs(services: Services, providers: Providers): ModuleJob[] {
  const { knex } = services;
  const serp = providers.serp ?? null;
  const keywordData = providers.keywordData ?? null;

  /** One measurement through the SERP provider, stored for `day`. Never throws. */
  async function measure(project: { id: string; domain: string }, tracker: TrackerRow, keyword: string, day: string, signal: AbortSignal): Promise<Outcome> {
    if (!serp) return { status: 'skipped', reason: NO_SERP_PROVIDER };
    try {
      const result = await serp.check(
        { keyword, domain: project.domain, location: tracker.location, country: tracker.country, language: tracker.language, device: tracker.device },
        { signal },
      );
      await knex('keyword_positions')
        .insert({
          project_id: project.id,
          keyword,
          date: day,
          position: result.position,
          url: result.url,
          serp_features: JSON.stringify(result.serpFeatures),
          checked_at: services.clock().toISOString(),
        })
        .onConflict(['project_id', 'keyword', 'date'])
        .merge();
      return { status: 'done' };
    } catch (error) {
      return { status: 'failed', reason: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
    }
  }

  async function refreshKeywordData(projectId: string, tracker: TrackerRow, keywords: string[]): Promise<void> {
    if (!keywordData || keywords.length === 0) return;
    const found = await keywordData.lookup({ keywords, location: tracker.location, country: tracker.country, language: tracker.language });
    const byKeyword = new Map(found.map((k) => [k.keyword.toLowerCase(), k]));
    const now = services.clock().toISOString();
    await transaction(knex, async (trx) => {
      for (const keyword of keywords) {
        const data = byKeyword.get(keyword);
        // A keyword the provider does not know keeps nulls, but is stamped so it is not asked again daily.
        await trx('tracked_keywords')
          .where({ project_id: projectId, keyword })
          .update({
            search_volume: data?.searchVolume ?? null,
            keyword_difficulty: data?.keywordDifficulty ?? null,
            search_intent: data?.searchIntent ?? null,
            keyword_data_at: now,
          });
      }
    });
  }

  const checkJob = defineJobHandler(POSITIONS_CHECK, {
    async run({ checkId }, ctx) {
      const check = await knex('keyword_checks').where({ id: checkId }).first();
      if (!check || check.status !== 'queued') return;
      const project = await projectById(knex, check.project_id);
      const tracker = (await knex('position_trackers').where({ project_id: check.project_id }).first()) as TrackerRow | undefined;
      if (!project || !tracker) return;
      const outcome = await measure(project, tracker, check.keyword, check.date, ctx.signal);
      await knex('keyword_checks')
        .where({ id: checkId })
        .update({ status: outcome.status, reason: 'reason' in outcome ? outcome.reason : null, finished_at: services.clock().toISOString() });
    },
  });

  const dailyJob = defineJobHandler(POSITIONS_DAILY, {
    async run({ projectId, day }, ctx) {
      if (!(await claimDailyRun(services, DAILY_RUN, projectId, day))) return;
      const today = isoDay(services.clock());

      const tracker = (await knex('position_trackers').where({ project_id: projectId }).first()) as TrackerRow;
      // Claimed above: the tracker, and so its project, exist (a deletion cascades to both).
      const project = (await projectById(knex, projectId))!;
      const active = (await knex('tracked_keywords').where({ project_id: projectId, state: 'tracked' }).orderBy('keyword')) as TrackedKeywordRow[];
      const measuredToday = new Set<string>(await knex('keyword_positions').where({ project_id: projectId, date: today }).pluck('keyword'));

      let failed = 0;
      let firstFailure: string | null = null;
      for (const row of active) {
        throwIfAborted(ctx.signal);
        // A live check already measured it today: the daily run does not pay twice.
        if (measuredToday.has(row.keyword)) continue;
        const outcome = await measure(project, tracker, row.keyword, today, ctx.signal);
        if (outcome.status === 'failed') {
          failed++;
          firstFailure ??= outcome.reason;
          await knex('keyword_checks').insert({
            id: randomUUID(),
            team_id: project.team_id,
            project_id: projectId,
            keyword: row.keyword,
            date: today,
            kind: 'daily',
            status: 'failed',
            reason: outcome.reason,
            created_at: services.clock().toISOString(),
            finished_at: services.clock().toISOString(),
          });
        }
      }
      const error = active.length > 0 && !serp ? NO_SERP_PROVIDER : failed > 0 ? `${failed} of ${active.length} checks failed: ${firstFailure}`.slice(0, 200) : null;
      await knex('position_trackers').where({ project_id: projectId }).update({ last_run_on: today, last_run_error: error });

      if (keywordData) {
        const staleBefore = addDays(today, -KEYWORD_DATA_MAX_AGE_DAYS);
        const stale = active.filter((r) => r.keyword_data_at === null || r.keyword_data_at.slice(0, 10) < staleBefore).map((r) => r.keyword);
        // Keyword data is an extra: its failure must not undo the day's positions.
        await refreshKeywordData(projectId, tracker, stale).catch((err) =>
          services.logger.child({ module: 'positions' }).warn({ err, project: projectId, keywords: stale.length }, 'keyword data not refreshed'),
        );
      }
    },
    async onFailed({ projectId }) {
      // A run that crashed for good must not end the chain of daily runs.
      await transaction(knex, async (trx) => {
        const tracker = await trx('position_trackers').where({ project_id: projectId }).first('next_run_on');
        if (tracker && tracker.next_run_on === null) await scheduleDaily(services, trx, projectId, addDays(isoDay(services.clock()), 1));
      });
    },
  });

  const keywordDataJob = defineJobHandler(POSITIONS_KEYWORD_DATA, {
    async run({ projectId, keywords }) {
      const tracker = (await knex('position_trackers').where({ project_id: projectId }).first()) as TrackerRow | undefined;
      if (!tracker) return;
      await refreshKeywordData(projectId, tracker, keywords);
    },
  });

  return [checkJob, dailyJob, keywordDataJob];
}
