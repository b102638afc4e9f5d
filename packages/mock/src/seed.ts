/**
 * The seed state (teams, members, tokens), the operator helpers that mirror the server's
 * `server.admin`, and the one-call scenarios. Everything here writes the store directly: seeding
 * costs no rate-limit units and leaves no idempotency records.
 */
import { contract, SCOPES, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS, WEBHOOK_EVENTS, type OperationId, type Role, type Scope } from '@siteaudit/schema';
import { canonicalKeyword } from '@siteaudit/schema/rules';
import type { Caller, MockEnv, OpContext, Outcome } from './context.js';
import type { MemberRecord, TeamRecord, TokenRecord } from './db.js';
import { authenticate } from './http.js';
import { runDueJobs } from './jobs.js';
import { insertCrawl } from './modules/crawls.js';
import { removeProject } from './modules/projects.js';
import { measureKeyword, trackKeywordRecords } from './modules/positions.js';
import { insertWebhook } from './modules/webhooks.js';
import { BUSINESS } from './operations.js';
import { randomAlphanumeric } from './random.js';
import { DAY, HOUR, iso, isoDate } from './store.js';

/** The seeded bearer tokens, stable for a given seed (and across `reset()`). */
export interface MockTokens {
  /** Owner of team `acme` on the agency plan (everything included), every scope. */
  owner: string;
  /** Member (not owner or admin) of team `acme`, every scope: webhooks answer 403 `role.forbidden`. */
  member: string;
  /** Owner of team `startup` on the starter plan (API read only), every read scope. */
  readOnly: string;
  /** Owner of team `hobby` on the free plan (no API), every scope. */
  free: string;
  /** Owner of team `globex` on the pro plan (read and write, no Excel export), every scope. */
  pro: string;
  /** A token of the `acme` owner that expired yesterday: 401. */
  expired: string;
}

const READ_SCOPES = SCOPES.filter((s) => s.endsWith(':read'));

/** The operator helpers, named as on `server.admin` so one test setup can drive both. */
export interface MockAdmin {
  createTeam(input: { slug: string; name: string; plan: string }): { id: string; slug: string };
  addMember(input: { team: string; email: string; name: string; role: Role }): { id: string };
  /** Creates a token for a member (by email); `days` defaults to 90, at most 365 (whole days). */
  createToken(input: { team: string; member: string; name: string; scopes: readonly Scope[]; days?: number }): { id: string; token: string };
  /** The member's tokens stop working (docs/decisions/roles-and-health.md). */
  removeMember(input: { team: string; email: string }): void;
  setPlan(input: { team: string; plan: string }): void;
  setProjectLocked(projectId: string, locked: boolean): void;
  /**
   * Deletes the team and everything of it, as `server.admin.deleteTeam` does: its tokens stop
   * working at once, its running crawls stop, its projects (campaigns, crawls, exports, keywords,
   * log imports), webhooks and their deliveries, members, idempotency keys go.
   */
  deleteTeam(slug: string): { projects: number };
  /** The teams, oldest first, with their current members' count. */
  listTeams(): { id: string; slug: string; name: string; plan: string; members: number; created_at: string }[];
  /** The team's members, removed ones included (with `removed_at`), in the order they were added. */
  listMembers(input: { team: string }): { id: string; email: string; name: string; role: Role; created_at: string; removed_at: string | null }[];
  /** The team's tokens (of one member with `member`), oldest first; `active` while unexpired and held by a member. */
  listTokens(input: { team: string; member?: string }): { id: string; name: string; member: string; scopes: Scope[]; expires_at: string; last_used_at: string | null; created_at: string; active: boolean }[];
  /** Deletes a token of the team: it stops working at once. */
  revokeToken(input: { team: string; id: string }): { team: string; id: string; name: string; revoked: true };
}

function teamBySlug(env: MockEnv, slug: string): TeamRecord {
  for (const team of env.db.teams.values()) if (team.slug === slug) return team;
  throw new Error(`@siteaudit/mock: no team "${slug}"`);
}

function memberByEmail(env: MockEnv, team: TeamRecord, email: string): MemberRecord {
  for (const m of env.db.members.values()) if (m.team_id === team.id && m.email === email && !m.removed_at) return m;
  throw new Error(`@siteaudit/mock: no member "${email}" in team "${team.slug}"`);
}

export function createAdmin(env: MockEnv): MockAdmin {
  const admin: MockAdmin = {
    createTeam({ slug, name, plan }) {
      if (!env.plans[plan]) throw new Error(`@siteaudit/mock: no plan "${plan}"`);
      if ([...env.db.teams.values()].some((t) => t.slug === slug)) throw new Error(`@siteaudit/mock: team "${slug}" exists`);
      const team: TeamRecord = { id: env.random.uuid(), slug, name, plan, created_at: iso(env.clock()) };
      env.db.teams.set(team.id, team);
      return { id: team.id, slug };
    },
    addMember({ team, email, name, role }) {
      const t = teamBySlug(env, team);
      const member: MemberRecord = { id: env.random.uuid(), team_id: t.id, email, name, role, created_at: iso(env.clock()), removed_at: null };
      env.db.members.set(member.id, member);
      return { id: member.id };
    },
    createToken({ team, member, name, scopes, days = TOKEN_DEFAULT_DAYS }) {
      if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS) throw new RangeError(`@siteaudit/mock: a token lives 1 to ${TOKEN_MAX_DAYS} days`);
      const t = teamBySlug(env, team);
      const m = memberByEmail(env, t, member);
      const now = env.clock().getTime();
      const record: TokenRecord = {
        id: env.random.uuid(),
        team_id: t.id,
        member_id: m.id,
        name,
        token: `sa_test_${randomAlphanumeric(env.random, 32)}`,
        scopes: [...scopes],
        expires_at: iso(now + days * DAY),
        last_used_at: null,
        created_at: iso(now),
      };
      env.db.tokens.set(record.id, record);
      return { id: record.id, token: record.token };
    },
    listTeams() {
      const members = (teamId: string) => [...env.db.members.values()].filter((m) => m.team_id === teamId && !m.removed_at).length;
      return [...env.db.teams.values()]
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.slug.localeCompare(b.slug))
        .map((t) => ({ id: t.id, slug: t.slug, name: t.name, plan: t.plan, members: members(t.id), created_at: t.created_at }));
    },
    listMembers({ team }) {
      const t = teamBySlug(env, team);
      return [...env.db.members.values()]
        .filter((m) => m.team_id === t.id)
        .map((m) => ({ id: m.id, email: m.email, name: m.name, role: m.role, created_at: m.created_at, removed_at: m.removed_at }));
    },
    listTokens({ team, member }) {
      const t = teamBySlug(env, team);
      const now = iso(env.clock());
      const email = member?.trim().toLowerCase();
      return [...env.db.tokens.values()]
        .filter((k) => k.team_id === t.id)
        .map((k) => ({ token: k, holder: env.db.members.get(k.member_id)! }))
        .filter(({ holder }) => email === undefined || holder.email.toLowerCase() === email)
        .sort((a, b) => a.token.created_at.localeCompare(b.token.created_at) || a.token.name.localeCompare(b.token.name))
        .map(({ token: k, holder }) => ({
          id: k.id,
          name: k.name,
          member: holder.email,
          scopes: [...k.scopes],
          expires_at: k.expires_at,
          last_used_at: k.last_used_at,
          created_at: k.created_at,
          active: k.expires_at > now && !holder.removed_at,
        }));
    },
    revokeToken({ team, id }) {
      const t = teamBySlug(env, team);
      const token = env.db.tokens.get(id.toLowerCase());
      if (!token || token.team_id !== t.id) throw new Error(`@siteaudit/mock: no token ${id} in team "${team}"`);
      env.db.tokens.delete(token.id);
      return { team, id: token.id, name: token.name, revoked: true as const };
    },
    deleteTeam(slug) {
      const team = teamBySlug(env, slug);
      const db = env.db;
      const now = env.clock();
      const projects = [...db.projects.values()].filter((p) => p.team_id === team.id);
      for (const project of projects) removeProject(env, project, now);
      for (const map of [db.tokens, db.members, db.webhooks, db.deliveries]) for (const [id, record] of map) if (record.team_id === team.id) map.delete(id);
      for (const key of [...db.idempotency.keys()]) if (key.startsWith(`${team.id}\u0000`)) db.idempotency.delete(key);
      db.launches = db.launches.filter((l) => l.team_id !== team.id);
      db.teams.delete(team.id);
      return { projects: projects.length };
    },
    removeMember({ team, email }) {
      memberByEmail(env, teamBySlug(env, team), email).removed_at = iso(env.clock());
    },
    setPlan({ team, plan }) {
      if (!env.plans[plan]) throw new Error(`@siteaudit/mock: no plan "${plan}"`);
      teamBySlug(env, team).plan = plan;
    },
    setProjectLocked(projectId, locked) {
      const project = env.db.projects.get(projectId);
      if (!project) throw new Error(`@siteaudit/mock: no project ${projectId}`);
      project.locked = locked;
    },
  };
  return admin;
}

/** Seeds the teams, members and tokens every mock starts with. */
export function seedBase(env: MockEnv, admin: MockAdmin): MockTokens {
  const team = (slug: string, name: string, plan: string, ownerName: string) => {
    admin.createTeam({ slug, name, plan });
    admin.addMember({ team: slug, email: `owner@${slug}.test`, name: ownerName, role: 'owner' });
  };
  team('acme', 'Acme', 'agency', 'Alice Martin');
  admin.addMember({ team: 'acme', email: 'member@acme.test', name: 'Bruno Petit', role: 'member' });
  team('startup', 'Startup', 'starter', 'Chloé Durand');
  team('hobby', 'Hobby', 'free', 'David Leroy');
  team('globex', 'Globex', 'pro', 'Emma Moreau');
  const tokens: MockTokens = {
    owner: admin.createToken({ team: 'acme', member: 'owner@acme.test', name: 'owner', scopes: SCOPES }).token,
    member: admin.createToken({ team: 'acme', member: 'member@acme.test', name: 'member', scopes: SCOPES }).token,
    readOnly: admin.createToken({ team: 'startup', member: 'owner@startup.test', name: 'read-only', scopes: READ_SCOPES }).token,
    free: admin.createToken({ team: 'hobby', member: 'owner@hobby.test', name: 'free', scopes: SCOPES }).token,
    pro: admin.createToken({ team: 'globex', member: 'owner@globex.test', name: 'pro', scopes: SCOPES }).token,
    expired: admin.createToken({ team: 'acme', member: 'owner@acme.test', name: 'expired', scopes: SCOPES, days: 1 }).token,
  };
  // Issued two days ago for one day: expired yesterday.
  for (const record of env.db.tokens.values()) {
    if (record.token === tokens.expired) {
      const now = env.clock().getTime();
      Object.assign(record, { created_at: iso(now - 2 * DAY), expires_at: iso(now - DAY) });
    }
  }
  return tokens;
}

export interface ProjectScenario {
  /** The token the scenario's data belongs to (the `acme` owner unless another was given). */
  token: string;
  projectId: string;
  /** The default campaign created with the project. */
  campaignId: string;
}
export interface CrawlScenario extends ProjectScenario {
  crawlId: string;
}
export interface KeywordsScenario extends ProjectScenario {
  /** Canonical forms of the tracked keywords, each measured twice (two days ago and yesterday). */
  keywords: string[];
}
export interface WebhookScenario {
  token: string;
  webhookId: string;
  /** The signing secret, as the create call would have shown it once. */
  secret: string;
}

/** One-call scenarios: each seeds what it says and returns the ids and a ready token. */
export interface SeedApi {
  teamWithProject(options?: { url?: string; name?: string; token?: string }): ProjectScenario;
  /** A project whose default campaign has one completed, settled crawl (launched an hour ago). */
  completedCrawl(options?: { url?: string; token?: string }): CrawlScenario;
  trackedKeywords(options?: { keywords?: string[]; url?: string; token?: string }): KeywordsScenario;
  webhook(options?: { url?: string; events?: string[]; token?: string }): WebhookScenario;
}
export type ScenarioName = keyof SeedApi;
export type ScenarioResults = { [K in ScenarioName]: ReturnType<SeedApi[K]> };

const DEFAULT_KEYWORDS = ['site audit', 'SEO crawler', 'technical  SEO checklist', 'core web vitals', 'broken link checker'];

/** Calls an operation's business function directly, as `token`, with input run through the contract. */
function invoke<K extends OperationId>(env: MockEnv, id: K, token: string, input: { params?: object; body?: object }): Outcome {
  const now = env.clock();
  const caller: Caller | null = authenticate(env, `Bearer ${token}`, now);
  if (!caller) throw new Error('@siteaudit/mock: the scenario token is not valid');
  const entry = contract[id];
  const ctx = {
    env,
    db: env.db,
    caller,
    params: entry.params.parse(input.params ?? {}),
    query: entry.query.parse({}),
    body: entry.body ? entry.body.parse(input.body) : undefined,
    now,
    language: 'en',
  } as unknown as OpContext<K>;
  return (BUSINESS[id] as (c: OpContext<K>) => Outcome)(ctx);
}

export function createSeedApi(env: MockEnv, tokens: MockTokens): SeedApi {
  const seed: SeedApi = {
    teamWithProject({ url = 'https://www.example.com', name, token = tokens.owner } = {}) {
      const outcome = invoke(env, 'createProject', token, { body: { url, ...(name ? { name } : {}) } });
      const projectId = (outcome as { data: { id: string } }).data.id;
      const campaign = [...env.db.campaigns.values()].find((c) => c.project_id === projectId)!;
      return { token, projectId, campaignId: campaign.id };
    },
    completedCrawl({ url, token } = {}) {
      const project = seed.teamWithProject({ url, token });
      const launchedAt = env.clock().getTime() - HOUR;
      const crawl = insertCrawl(env, env.db, project.campaignId, new Date(launchedAt));
      // Its phases all fall in the past hour: run them now, without moving the clock.
      runDueJobs(env, env.clock().getTime());
      return { ...project, crawlId: crawl.id };
    },
    trackedKeywords({ keywords = DEFAULT_KEYWORDS, url, token } = {}) {
      const project = seed.teamWithProject({ url, token });
      const record = env.db.projects.get(project.projectId)!;
      const canonical = [...new Set(keywords.map(canonicalKeyword))];
      trackKeywordRecords(env.db, record, canonical);
      const now = env.clock().getTime();
      for (const k of env.db.keywords) {
        if (k.project_id !== record.id || !env.serp) continue;
        measureKeyword(k, record, isoDate(now - 2 * DAY));
        measureKeyword(k, record, isoDate(now - DAY));
      }
      return { ...project, keywords: canonical };
    },
    webhook({ url = 'https://hooks.example.com/siteaudit', events = [...WEBHOOK_EVENTS], token = tokens.owner } = {}) {
      const caller = authenticate(env, `Bearer ${token}`, env.clock());
      if (!caller) throw new Error('@siteaudit/mock: the scenario token is not valid');
      const record = insertWebhook(env, caller.team.id, { url, events }, env.clock());
      return { token, webhookId: record.id, secret: record.secret };
    },
  };
  return seed;
}
