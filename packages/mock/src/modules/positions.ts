/**
 * Rank tracking and Search Console. Keywords are kept in canonical form (`canonicalKeyword`).
 * A tracked keyword takes a slot of the plan pool and of the project ceiling; pausing or
 * untracking frees it; resuming takes it back. The mock has no SERP provider: positions come
 * from a generator seeded by project, keyword and date, and appear after a `check` and
 * `advance()` (or through `seed.trackedKeywords()`). Search Console is always `unconfigured`.
 */
import { canonicalKeyword, type Positions, type SearchConsole } from '@siteaudit/schema';
import { data, fail, type BusinessMap, type Caller, type MockEnv } from '../context.js';
import type { Job, KeywordRecord, MockDb, ProjectRecord } from '../db.js';
import { createRandom } from '../random.js';
import { assertIncluded, assertUnlocked, assertWithinPlan, DAY, isoDate, isoMonth, nextSeq, ownedProject, SECOND } from '../store.js';

export const CHECK_DELAY_MS = 2 * SECOND;
const PERIOD_DAYS = { '7d': 7, '28d': 28, '30d': 30, '90d': 90, '180d': 180, '365d': 365 } as const;
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

function shiftDate(date: string, days: number): string {
  return isoDate(Date.parse(`${date}T00:00:00Z`) + days * DAY);
}

/** N inclusive days ending `to` (docs/decisions/periods.md): today for positions, yesterday for Search Console. */
function period(preset: keyof typeof PERIOD_DAYS, now: Date, endDaysAgo = 0) {
  const to = shiftDate(isoDate(now), -endDaysAgo);
  return { preset, from: shiftDate(to, -(PERIOD_DAYS[preset] - 1)), to };
}

/** Organic CTR of positions 1..10 (SISTRIX 2020), as the server's visibility uses; 0 beyond. */
const CTR_CURVE_PERCENT = [28.5, 15.7, 11.0, 8.0, 7.2, 5.1, 4.0, 3.2, 2.8, 2.5];

function visibilityPercent(positions: (number | null)[]): number {
  if (positions.length === 0) return 0;
  const weight = (p: number | null) => (p === null || p < 1 || p > CTR_CURVE_PERCENT.length ? 0 : CTR_CURVE_PERCENT[p - 1] / CTR_CURVE_PERCENT[0]);
  return Math.round((10_000 * positions.reduce<number>((sum, p) => sum + weight(p), 0)) / positions.length) / 100;
}

/** The positions read, computed as the server computes it from the measurements. */
function positions(db: MockDb, caller: Caller, project: ProjectRecord, preset: keyof typeof PERIOD_DAYS, now: Date): Positions {
  const all = projectKeywords(db, project.id);
  // The server creates the tracker on the first track and keeps it: any record means one exists.
  const tracker = all.length > 0;
  const records = all.filter((k) => k.state !== 'untracked').sort((a, b) => a.keyword.localeCompare(b.keyword));
  const range = period(preset, now);
  const latestOf = (k: KeywordRecord) => [...k.history].reverse().find((h) => h.date <= range.to);
  const deltaOf = (k: KeywordRecord, days: number): number | null => {
    const current = latestOf(k);
    if (!current || current.position === null) return null;
    const then = k.history.find((h) => h.date === shiftDate(current.date, -days));
    // Positive means improved (moved up the page), as rank trackers show it.
    return then && then.position !== null ? then.position - current.position : null;
  };
  const keywords = records.map((k) => {
    const current = latestOf(k);
    return {
      keyword: k.keyword,
      active: k.state === 'tracked',
      measured: current !== undefined,
      position: current?.position ?? null,
      url: current?.position != null ? k.url : null,
      delta_1d: deltaOf(k, 1),
      delta_7d: deltaOf(k, 7),
      delta_30d: deltaOf(k, 30),
      search_volume: k.search_volume,
      keyword_difficulty: k.keyword_difficulty,
      search_intent: k.search_intent,
      serp_features: current ? [...k.serp_features] : [],
    };
  });
  const measured = keywords.filter((k) => k.measured);
  const ranking = measured.filter((k) => k.position !== null);
  let improved = 0;
  let declined = 0;
  let entered = 0;
  let exited = 0;
  for (const record of records) {
    const current = latestOf(record);
    if (!current) continue;
    // The position at the start of the period: the last one before it, else the first within it.
    const start = [...record.history].reverse().find((h) => h.date <= range.from) ?? record.history.find((h) => h.date >= range.from && h.date <= range.to);
    if (!start || start.date === current.date) continue;
    if (start.position === null && current.position !== null) entered++;
    else if (start.position !== null && current.position === null) exited++;
    else if (start.position !== null && current.position !== null) {
      if (current.position < start.position) improved++;
      else if (current.position > start.position) declined++;
    }
  }
  const active = records.filter((k) => k.state === 'tracked').length;
  const status: Positions['status'] = !tracker ? 'unconfigured' : active === 0 ? 'paused' : measured.some((k) => k.active) ? 'active' : 'pending';
  const lastTracked = records.map((k) => latestOf(k)?.date).filter((d): d is string => d !== undefined).sort().pop() ?? null;
  const used = activeCount(db.keywords.filter((k) => k.team_id === caller.team.id));
  const limit = caller.plan.limits['positions.tracked_keywords'];
  return {
    project_id: project.id,
    status,
    tracker: tracker ? { location: 'France', country: 'FR', language: 'fr', device: 'desktop', active: active > 0, last_tracked_on: lastTracked } : null,
    period: range,
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

/** Starts tracking keywords of a project; the caller has checked the plan. Returns those that changed. */
export function trackKeywordRecords(db: MockDb, project: ProjectRecord, keywords: string[]): string[] {
  const changed: string[] = [];
  for (const keyword of keywords) {
    const existing = db.keywords.find((k) => k.project_id === project.id && k.keyword === keyword);
    if (existing && existing.state !== 'untracked') continue;
    if (existing) {
      // Re-tracking keeps the paid history (spec: untrack keeps it).
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

/** The module needs a plan that includes it: a pool of 0 means not included (spec: Usage). */
function assertModule(env: MockEnv, caller: Caller): void {
  assertIncluded(env, caller.plan, 'positions.tracked_keywords', 'plan_limit.positions');
}

/** 409 `keywords.not_tracked` naming the first keyword that is not tracked (nor paused). */
function assertAllTracked(records: KeywordRecord[], keywords: string[]): void {
  const missing = keywords.find((kw) => !records.some((k) => k.keyword === kw && k.state !== 'untracked'));
  if (missing !== undefined) fail('keywords.not_tracked', { detail: `"${missing}" is not tracked in this project` });
}

export const positionOperations: Pick<
  BusinessMap,
  'getPositions' | 'trackKeywords' | 'untrackKeywords' | 'pauseKeywords' | 'resumeKeywords' | 'checkKeyword' | 'getSearchConsole'
> = {
  getPositions({ env, db, caller, params, query, now }) {
    const project = ownedProject(db, params.project, caller);
    assertModule(env, caller);
    return data(positions(db, caller, project, query.period ?? '30d', now));
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
    assertWithinPlan(env, caller.plan, 'positions.tracked_keywords', teamActive + fresh.length, 'plan_limit.positions.tracked_keywords');
    // The per-project ceiling counts listed keywords, paused ones included (they keep their place).
    const listed = records.filter((k) => k.state !== 'untracked').length;
    assertWithinPlan(env, caller.plan, 'keywords.project_limit', listed + fresh.length, 'keywords.project_limit');
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
    assertWithinPlan(env, caller.plan, 'positions.tracked_keywords', teamActive + paused.length, 'plan_limit.positions.tracked_keywords');
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
    if (db.keywordChecks.some((c) => c.project_id === project.id && c.keyword === keyword && c.date === today)) fail('keywords.already_checked_today');
    const teamChecks = db.keywordChecks.filter((c) => c.team_id === caller.team.id);
    assertWithinPlan(env, caller.plan, 'positions.live_checks_per_day', teamChecks.filter((c) => c.date === today).length + 1, 'plan_limit.positions.live_checks_per_day');
    // The mock prices a live check at one spend unit against the monthly cap.
    const month = isoMonth(now);
    assertWithinPlan(env, caller.plan, 'positions.monthly_spend', teamChecks.filter((c) => c.date.slice(0, 7) === month).length + 1, 'plan_limit.positions.monthly_spend');
    db.keywordChecks.push({ team_id: caller.team.id, project_id: project.id, keyword, date: today, done: false });
    env.schedule('keyword.check', [project.id, keyword, today].join('\u0000'), now.getTime() + CHECK_DELAY_MS);
    return data({ project_id: project.id, keyword, status: 'queued', date: today }, { status: 202 });
  },

  getSearchConsole({ env, db, caller, params, query, now }) {
    const project = ownedProject(db, params.project, caller);
    assertIncluded(env, caller.plan, 'search_console', 'plan_limit.search_console');
    // No property can be linked through the API, so the mock is always unconfigured.
    const result: SearchConsole = {
      project_id: project.id,
      status: 'unconfigured',
      property: null,
      synced_at: null,
      performance: { period: period(query.period ?? '28d', now, 1), totals: null, daily: [] },
      indexation: null,
    };
    return data(result);
  },
};
