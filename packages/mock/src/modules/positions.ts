/**
 * Rank tracking and Search Console. Keywords are kept in canonical form (`canonicalKeyword`).
 * A tracked keyword takes a slot of the plan pool and of the project ceiling; pausing or
 * untracking frees it; resuming takes it back. The mock has no SERP provider: positions come
 * from a generator seeded by project, keyword and date, and appear after a `check` and
 * `advance()` (or through `seed.trackedKeywords()`). Search Console is always `unconfigured`.
 */
import { type PeriodPreset, type Positions, type SearchConsole } from '@siteaudit/schema';
import { canonicalKeyword, POSITIONS_DEFAULT_PERIOD, positionsPeriod, quotaOf, readListedKeywords, refusalDetails, SEARCH_CONSOLE_DEFAULT_PERIOD, searchConsolePeriod, searchConsoleSync } from '@siteaudit/schema/rules';
import { assertIncluded, assertWithinPlan } from '@siteaudit/schema/pipeline';
import { data, fail, type BusinessMap, type Caller, type MockEnv } from '../context.js';
import type { Job, KeywordRecord, MockDb, ProjectRecord } from '../db.js';
import { createRandom } from '../random.js';
import { assertUnlocked, isoDate, isoMonth, nextSeq, ownedProject, SECOND } from '../store.js';

export const CHECK_DELAY_MS = 2 * SECOND;
const INTENTS = ['informational', 'commercial', 'transactional', 'navigational'];
const FEATURES = ['featured_snippet', 'people_also_ask', 'images', 'video', 'local_pack', 'ai_overview'];

/** Canonical forms, duplicates removed, first occurrence order kept. */
function canonicalList(keywords: readonly string[]): string[] {
  return [...new Set(keywords.map(canonicalKeyword))];
}

function projectKeywords(db: MockDb, projectId: string): KeywordRecord[] {
  return db.keywords.filter((k) => k.project_id === projectId);
}

const activeCount = (records: KeywordRecord[]) => records.filter((k) => k.state === 'tracked').length;

/** Records one measurement of a keyword on `date` (a check, or the seeded history). */
export function measureKeyword(record: KeywordRecord, project: ProjectRecord, date: string): void {
  const draw = createRandom(`position:${record.project_id}:${record.keyword}:${date}`);
  const stable = createRandom(`keyword:${record.keyword}`);
  // About one keyword in five is outside the top 100: measured, with a null position.
  const position = draw.next() < 0.2 ? null : draw.int(1, 60);
  record.history = record.history.filter((h) => h.date !== date);
  record.history.push({ date, position });
  record.history.sort((a, b) => a.date.localeCompare(b.date));
  const latest = record.history[record.history.length - 1];
  record.position = latest.position;
  record.measured = true;
  record.last_checked_on = latest.date;
  record.url = latest.position === null ? null : new URL(`/${record.keyword.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`, project.url).href;
  record.search_volume = stable.int(10, 20_000);
  record.keyword_difficulty = stable.int(0, 100);
  record.search_intent = stable.pick(INTENTS);
  record.serp_features = FEATURES.filter(() => stable.next() < 0.3);
}

export function runKeywordCheckJob(env: MockEnv, job: Job): void {
  const [projectId, keyword, date] = job.id.split('\u0000');
  const check = env.db.keywordChecks.find((c) => c.project_id === projectId && c.keyword === keyword && c.date === date);
  const record = env.db.keywords.find((k) => k.project_id === projectId && k.keyword === keyword);
  const project = env.db.projects.get(projectId);
  if (!check || check.done || !record || !project) return;
  check.done = true;
  // Without a SERP provider the server's check measures nothing; the mock simulates one unless told not to.
  if (env.serp && record.state !== 'untracked') measureKeyword(record, project, date);
}

/**
 * The positions read from the measurements the mock keeps per keyword; the arithmetic (deltas,
 * summary, visibility, status) is the server's own (`readListedKeywords`).
 */
function positions(db: MockDb, caller: Caller, project: ProjectRecord, preset: PeriodPreset, now: Date): Positions {
  const all = projectKeywords(db, project.id);
  // The server creates the tracker on the first track and keeps it: any record means one exists.
  const tracker = all.length > 0;
  const period = positionsPeriod(preset, now);
  const read = readListedKeywords(
    all
      .filter((k) => k.state !== 'untracked')
      .map((k) => {
        const latest = [...k.history].reverse().find((h) => h.date <= period.to);
        return {
          keyword: k.keyword,
          active: k.state === 'tracked',
          // The record keeps what its latest check found; the mock never measures in the future.
          latest: latest && { ...latest, url: k.url, serp_features: k.serp_features },
          start: [...k.history].reverse().find((h) => h.date <= period.from) ?? k.history.find((h) => h.date >= period.from && h.date <= period.to),
          measuredOn: (day: string) => k.history.find((h) => h.date === day),
          search_volume: k.search_volume,
          keyword_difficulty: k.keyword_difficulty,
          search_intent: k.search_intent,
        };
      }),
    tracker,
  );
  return {
    project_id: project.id,
    status: read.status,
    tracker: tracker ? { location: 'France', country: 'FR', language: 'fr', device: 'desktop', active: read.activeKeywords > 0, last_tracked_on: read.lastTrackedOn } : null,
    period,
    summary: read.summary,
    keywords: read.keywords,
    quota: quotaOf(activeCount(db.keywords.filter((k) => k.team_id === caller.team.id)), caller.plan.limits['positions.tracked_keywords']),
  };
}

/** Starts tracking keywords of a project; the caller has checked the plan. Returns those that changed. */
export function trackKeywordRecords(db: MockDb, project: ProjectRecord, keywords: string[]): string[] {
  const changed: string[] = [];
  for (const keyword of keywords) {
    const existing = db.keywords.find((k) => k.project_id === project.id && k.keyword === keyword);
    if (existing && existing.state !== 'untracked') continue;
    if (existing) {
      // Re-tracking keeps the paid history (docs/decisions/positions.md).
      existing.state = 'tracked';
    } else {
      db.keywords.push({
        seq: nextSeq(db),
        team_id: project.team_id,
        project_id: project.id,
        keyword,
        state: 'tracked',
        measured: false,
        position: null,
        history: [],
        url: null,
        search_volume: null,
        keyword_difficulty: null,
        search_intent: null,
        serp_features: [],
        last_checked_on: null,
      });
    }
    changed.push(keyword);
  }
  return changed;
}

/** The module needs a plan that includes it: a pool of 0 means not included (docs/plans.md). */
function assertModule(env: MockEnv, caller: Caller): void {
  assertIncluded(env.plans, caller.plan, 'positions.tracked_keywords', 'plan_limit.positions');
}

/** 409 `keywords.not_tracked` naming the first keyword that is not tracked (nor paused). */
function assertAllTracked(records: KeywordRecord[], keywords: string[]): void {
  const missing = keywords.find((kw) => !records.some((k) => k.keyword === kw && k.state !== 'untracked'));
  if (missing !== undefined) fail('keywords.not_tracked', { detail: refusalDetails.keywordNotTracked(missing) });
}

export const positionOperations: Pick<
  BusinessMap,
  'getPositions' | 'trackKeywords' | 'untrackKeywords' | 'pauseKeywords' | 'resumeKeywords' | 'checkKeyword' | 'getSearchConsole'
> = {
  getPositions({ env, db, caller, params, query, now }) {
    const project = ownedProject(db, params.project, caller);
    assertModule(env, caller);
    return data(positions(db, caller, project, query.period ?? POSITIONS_DEFAULT_PERIOD, now));
  },

  trackKeywords({ env, db, caller, params, body }) {
    const project = ownedProject(db, params.project, caller);
    assertModule(env, caller);
    assertUnlocked(project);
    const keywords = canonicalList(body.keywords);
    const records = projectKeywords(db, project.id);
    // A paused keyword is already in the list: `resume` is what makes it active again.
    const already = keywords.filter((kw) => records.some((k) => k.keyword === kw && k.state !== 'untracked'));
    const fresh = keywords.filter((kw) => !already.includes(kw));
    if (fresh.length === 0) return data({ project_id: project.id, tracked: [], already_tracked: already });
    const teamActive = activeCount(db.keywords.filter((k) => k.team_id === caller.team.id));
    const pool = caller.plan.limits['positions.tracked_keywords'];
    assertWithinPlan(env.plans, caller.plan, 'positions.tracked_keywords', teamActive + fresh.length, 'plan_limit.positions.tracked_keywords', refusalDetails.keywordPool(fresh.length, teamActive, pool));
    // The per-project ceiling counts listed keywords, paused ones included (they keep their place).
    const listed = records.filter((k) => k.state !== 'untracked').length;
    assertWithinPlan(env.plans, caller.plan, 'keywords.project_limit', listed + fresh.length, 'keywords.project_limit', refusalDetails.keywordProjectCeiling(fresh.length, listed + fresh.length, caller.plan.limits['keywords.project_limit']));
    const tracked = trackKeywordRecords(db, project, fresh);
    return data({ project_id: project.id, tracked, already_tracked: already });
  },

  untrackKeywords({ db, caller, params, body }) {
    // Never refused by billing, nor by a lock: it only frees slots.
    const project = ownedProject(db, params.project, caller);
    const records = projectKeywords(db, project.id);
    const untracked: string[] = [];
    for (const keyword of canonicalList(body.keywords)) {
      const record = records.find((k) => k.keyword === keyword && k.state !== 'untracked');
      if (!record) continue;
      record.state = 'untracked';
      untracked.push(keyword);
    }
    return data({ project_id: project.id, untracked });
  },

  pauseKeywords({ env, db, caller, params, body }) {
    // Allowed on a locked project: like untrack, it only frees slots.
    const project = ownedProject(db, params.project, caller);
    assertModule(env, caller);
    const records = projectKeywords(db, project.id);
    const keywords = canonicalList(body.keywords);
    assertAllTracked(records, keywords);
    const changed: string[] = [];
    for (const record of records) {
      if (keywords.includes(record.keyword) && record.state === 'tracked') {
        record.state = 'paused';
        changed.push(record.keyword);
      }
    }
    return data({ project_id: project.id, active: false, changed: keywords.filter((k) => changed.includes(k)) });
  },

  resumeKeywords({ env, db, caller, params, body }) {
    const project = ownedProject(db, params.project, caller);
    assertModule(env, caller);
    assertUnlocked(project);
    const records = projectKeywords(db, project.id);
    const keywords = canonicalList(body.keywords);
    assertAllTracked(records, keywords);
    const paused = records.filter((k) => keywords.includes(k.keyword) && k.state === 'paused');
    const teamActive = activeCount(db.keywords.filter((k) => k.team_id === caller.team.id));
    if (paused.length > 0) assertWithinPlan(env.plans, caller.plan, 'positions.tracked_keywords', teamActive + paused.length, 'plan_limit.positions.tracked_keywords', refusalDetails.keywordPool(paused.length, teamActive, caller.plan.limits['positions.tracked_keywords']));
    for (const record of paused) record.state = 'tracked';
    return data({ project_id: project.id, active: true, changed: keywords.filter((k) => paused.some((p) => p.keyword === k)) });
  },

  checkKeyword({ env, db, caller, params, body, now }) {
    const project = ownedProject(db, params.project, caller);
    assertModule(env, caller);
    assertUnlocked(project);
    const keyword = canonicalKeyword(body.keyword);
    assertAllTracked(projectKeywords(db, project.id), [keyword]);
    const today = isoDate(now);
    if (db.keywordChecks.some((c) => c.project_id === project.id && c.keyword === keyword && c.date === today)) fail('keywords.already_checked_today', { detail: refusalDetails.keywordCheckedToday(keyword, today) });
    const teamChecks = db.keywordChecks.filter((c) => c.team_id === caller.team.id);
    const usedToday = teamChecks.filter((c) => c.date === today).length;
    assertWithinPlan(env.plans, caller.plan, 'positions.live_checks_per_day', usedToday + 1, 'plan_limit.positions.live_checks_per_day', refusalDetails.liveChecksToday(usedToday, caller.plan.limits['positions.live_checks_per_day']));
    // The mock prices a live check at one spend unit against the monthly cap.
    const month = isoMonth(now);
    const usedThisMonth = teamChecks.filter((c) => c.date.slice(0, 7) === month).length;
    assertWithinPlan(env.plans, caller.plan, 'positions.monthly_spend', usedThisMonth + 1, 'plan_limit.positions.monthly_spend', refusalDetails.liveChecksThisMonth(usedThisMonth, caller.plan.limits['positions.monthly_spend']));
    db.keywordChecks.push({ team_id: caller.team.id, project_id: project.id, keyword, date: today, done: false });
    env.schedule('keyword.check', [project.id, keyword, today].join('\u0000'), now.getTime() + CHECK_DELAY_MS);
    return data({ project_id: project.id, keyword, status: 'queued', date: today }, { status: 202 });
  },

  getSearchConsole({ env, db, caller, params, query, now }) {
    const project = ownedProject(db, params.project, caller);
    assertIncluded(env.plans, caller.plan, 'search_console', 'plan_limit.search_console');
    // No property can be linked through the API, so the mock is always unconfigured; it stands
    // for a server with a Search Console provider, so synchronisation is available.
    const result: SearchConsole = {
      project_id: project.id,
      status: 'unconfigured',
      property: null,
      synced_at: null,
      sync: searchConsoleSync(true),
      performance: { period: searchConsolePeriod(query.period ?? SEARCH_CONSOLE_DEFAULT_PERIOD, now), totals: null, daily: [] },
      indexation: null,
    };
    return data(result);
  },
};
