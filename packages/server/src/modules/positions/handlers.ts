/**
 * Rank tracking: the keyword state machine (docs/decisions/positions.md; candidate or unknown → tracked ⇄ paused,
 * tracked or paused → untracked), the plan pool and per-project ceiling, live checks and the
 * positions read. Every write that counts against a quota runs under the team lock, so parallel
 * calls can never exceed a limit. Rules: docs/decisions/positions.md.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { addDays, canonicalKeyword, isoDay, monthStartDay, type Plan, POSITIONS_DEFAULT_PERIOD, refusalDetails } from '@siteaudit/schema/rules';
import { assertIncluded, assertWithinPlan } from '@siteaudit/schema/pipeline';
import type { Handlers } from '../../http/binder.js';
import { ApiError } from '../../http/errors.js';
import type { Providers } from '../../providers/index.js';
import type { Services } from '../../services.js';
import { assertUnlocked, findProject } from '../projects/project-row.js';
import { lockTeam } from '../team-lock.js';
import { POSITIONS_CHECK, POSITIONS_KEYWORD_DATA } from './jobs.js';
import { scheduleDaily } from './tracking-jobs.js';
import { readPositions } from './read.js';
import { LISTED, TRACKER_DEFAULTS, canonicalList, count, isListed, liveChecksSince, poolUsed, type TrackedKeywordRow, UNCHARGED_CHECKS } from './store.js';
import { transaction } from '../../store/retry.js';

type PositionHandlers = Pick<Handlers, 'getPositions' | 'trackKeywords' | 'untrackKeywords' | 'pauseKeywords' | 'resumeKeywords' | 'checkKeyword'>;

export function positionHandlers(services: Services, providers: Providers): PositionHandlers {
  const { knex, reads, dialect } = services;

  /** The module needs a plan that includes it: a pool of 0 means not included (docs/plans.md). */
  function assertModule(plan: Plan): void {
    assertIncluded(services.plans(), plan, 'positions.tracked_keywords', 'plan_limit.positions');
  }

  /** Whether `more` keywords can become active in the pool; refuses naming the plan that would allow it. */
  async function assertPool(trx: Knex.Transaction, plan: Plan, teamId: string, more: number): Promise<void> {
    if (more === 0) return;
    const limit = plan.limits['positions.tracked_keywords'];
    const used = await poolUsed(trx, teamId);
    const detail = refusalDetails.keywordPool(more, used, limit);
    assertWithinPlan(services.plans(), plan, 'positions.tracked_keywords', used + more, 'plan_limit.positions.tracked_keywords', detail);
  }

  async function rowsFor(trx: Knex.Transaction, projectId: string, keywords: string[]): Promise<Map<string, TrackedKeywordRow>> {
    const rows = (await trx('tracked_keywords').where({ project_id: projectId }).whereIn('keyword', keywords)) as TrackedKeywordRow[];
    return new Map(rows.map((r) => [r.keyword, r]));
  }

  /** 409 keywords.not_tracked naming the first keyword that is neither tracked nor paused; nothing changes. */
  function assertListed(rows: Map<string, TrackedKeywordRow>, keywords: string[]): void {
    const missing = keywords.find((k) => !isListed(rows.get(k)));
    if (missing !== undefined) throw new ApiError('keywords.not_tracked', { detail: refusalDetails.keywordNotTracked(missing) });
  }

  async function setState(trx: Knex.Transaction, projectId: string, keywords: string[], state: TrackedKeywordRow['state'], now: Date): Promise<void> {
    if (keywords.length === 0) return;
    await trx('tracked_keywords').where({ project_id: projectId }).whereIn('keyword', keywords).update({ state, updated_at: now.toISOString() });
  }

  return {
    async getPositions(ctx, { params, query }) {
      const project = await findProject(reads, ctx.caller, params.project);
      assertModule(ctx.caller.plan);
      const data = await readPositions(reads, {
        projectId: project.id,
        teamId: ctx.caller.teamId,
        plan: ctx.caller.plan,
        preset: query.period ?? POSITIONS_DEFAULT_PERIOD,
        now: ctx.now,
        serpConfigured: providers.serp != null,
      });
      return { body: { data } };
    },

    async trackKeywords(ctx, { params, body }) {
      const project = await findProject(knex, ctx.caller, params.project);
      assertModule(ctx.caller.plan);
      assertUnlocked(project);
      const plan = ctx.caller.plan;
      const keywords = canonicalList(body.keywords);
      const result = await transaction(knex, async (trx) => {
        await lockTeam(trx, dialect, ctx.caller.teamId);
        const rows = await rowsFor(trx, project.id, keywords);
        // A paused keyword is already in the list: `resume` is what makes it active again.
        const already = keywords.filter((k) => isListed(rows.get(k)));
        const fresh = keywords.filter((k) => !already.includes(k));
        if (fresh.length === 0) return { tracked: [], already_tracked: already };

        await assertPool(trx, plan, ctx.caller.teamId, fresh.length);
        const ceiling = plan.limits['keywords.project_limit'];
        const held = await count(trx('tracked_keywords').where({ project_id: project.id }).whereIn('state', LISTED));
        const detail = refusalDetails.keywordProjectCeiling(fresh.length, held + fresh.length, ceiling);
        assertWithinPlan(services.plans(), plan, 'keywords.project_limit', held + fresh.length, 'keywords.project_limit', detail);

        const now = ctx.now.toISOString();
        if (!(await trx('position_trackers').where({ project_id: project.id }).first('project_id'))) {
          await trx('position_trackers').insert({ project_id: project.id, team_id: ctx.caller.teamId, ...TRACKER_DEFAULTS, created_at: now });
          // Daily runs start the next day; a check gives a position today.
          await scheduleDaily(services, trx, project.id, addDays(isoDay(ctx.now), 1));
        }
        // Candidates (suggested, never tracked) are adopted and untracked ones come back with their history.
        await setState(trx, project.id, fresh.filter((k) => rows.has(k)), 'tracked', ctx.now);
        const inserts = fresh
          .filter((k) => !rows.has(k))
          .map((keyword) => ({ id: randomUUID(), team_id: ctx.caller.teamId, project_id: project.id, keyword, state: 'tracked', created_at: now, updated_at: now }));
        if (inserts.length) await trx('tracked_keywords').insert(inserts);
        if (providers.keywordData) {
          const missing = fresh.filter((k) => !rows.get(k)?.keyword_data_at);
          if (missing.length) await services.jobs.enqueue(POSITIONS_KEYWORD_DATA, { projectId: project.id, keywords: missing }, { trx });
        }
        return { tracked: fresh, already_tracked: already };
      });
      return { body: { data: { project_id: project.id, ...result } } };
    },

    async untrackKeywords(ctx, { params, body }) {
      // Never refused by billing (docs/plans.md) nor by a lock: it only frees slots; history is kept.
      const project = await findProject(knex, ctx.caller, params.project);
      const keywords = canonicalList(body.keywords);
      const untracked = await transaction(knex, async (trx) => {
        await lockTeam(trx, dialect, ctx.caller.teamId);
        const rows = await rowsFor(trx, project.id, keywords);
        const changed = keywords.filter((k) => isListed(rows.get(k)));
        await setState(trx, project.id, changed, 'untracked', ctx.now);
        return changed;
      });
      return { body: { data: { project_id: project.id, untracked } } };
    },

    async pauseKeywords(ctx, { params, body }) {
      // Allowed on a locked project: like untrack, it only frees slots.
      const project = await findProject(knex, ctx.caller, params.project);
      assertModule(ctx.caller.plan);
      const keywords = canonicalList(body.keywords);
      const changed = await transaction(knex, async (trx) => {
        await lockTeam(trx, dialect, ctx.caller.teamId);
        const rows = await rowsFor(trx, project.id, keywords);
        assertListed(rows, keywords);
        const active = keywords.filter((k) => rows.get(k)!.state === 'tracked');
        await setState(trx, project.id, active, 'paused', ctx.now);
        return active;
      });
      return { body: { data: { project_id: project.id, active: false, changed } } };
    },

    async resumeKeywords(ctx, { params, body }) {
      const project = await findProject(knex, ctx.caller, params.project);
      assertModule(ctx.caller.plan);
      assertUnlocked(project);
      const keywords = canonicalList(body.keywords);
      const changed = await transaction(knex, async (trx) => {
        await lockTeam(trx, dialect, ctx.caller.teamId);
        const rows = await rowsFor(trx, project.id, keywords);
        assertListed(rows, keywords);
        const paused = keywords.filter((k) => rows.get(k)!.state === 'paused');
        // Paused keywords still count in the project ceiling, so only the pool is checked (docs/decisions/positions.md).
        await assertPool(trx, ctx.caller.plan, ctx.caller.teamId, paused.length);
        await setState(trx, project.id, paused, 'tracked', ctx.now);
        return paused;
      });
      return { body: { data: { project_id: project.id, active: true, changed } } };
    },

    async checkKeyword(ctx, { params, body }) {
      const project = await findProject(knex, ctx.caller, params.project);
      const plan = ctx.caller.plan;
      assertModule(plan);
      assertUnlocked(project);
      const keyword = canonicalKeyword(body.keyword);
      const today = isoDay(ctx.now);
      await transaction(knex, async (trx) => {
        await lockTeam(trx, dialect, ctx.caller.teamId);
        const rows = await rowsFor(trx, project.id, [keyword]);
        assertListed(rows, [keyword]);
        const checked = await count(
          trx('keyword_checks').where({ project_id: project.id, keyword, date: today, kind: 'live' }).whereNotIn('status', UNCHARGED_CHECKS),
        );
        if (checked > 0) throw new ApiError('keywords.already_checked_today', { detail: refusalDetails.keywordCheckedToday(keyword, today) });

        const daily = plan.limits['positions.live_checks_per_day'];
        const usedToday = await liveChecksSince(trx, ctx.caller.teamId, today, today);
        assertWithinPlan(services.plans(), plan, 'positions.live_checks_per_day', usedToday + 1, 'plan_limit.positions.live_checks_per_day', refusalDetails.liveChecksToday(usedToday, daily));
        const monthly = plan.limits['positions.monthly_spend'];
        const usedThisMonth = await liveChecksSince(trx, ctx.caller.teamId, monthStartDay(today));
        assertWithinPlan(services.plans(), plan, 'positions.monthly_spend', usedThisMonth + 1, 'plan_limit.positions.monthly_spend', refusalDetails.liveChecksThisMonth(usedThisMonth, monthly));
        const id = randomUUID();
        await trx('keyword_checks').insert({
          id,
          team_id: ctx.caller.teamId,
          project_id: project.id,
          keyword,
          date: today,
          kind: 'live',
          status: 'queued',
          reason: null,
          created_at: ctx.now.toISOString(),
          finished_at: null,
        });
        await services.jobs.enqueue(POSITIONS_CHECK, { checkId: id }, { trx });
      });
      return { body: { data: { project_id: project.id, keyword, status: 'queued' as const, date: today } } };
    },
  };
}
