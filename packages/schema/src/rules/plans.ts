/**
 * The default plan catalogue (docs/plans.md). Every number a plan sets lives here; the server's
 * `plans` option deep-merges over it. In `limits`, null means unlimited and 0 means not included
 * (docs/plans.md), so a feature flag is a limit of 0 or null.
 */
import type { ScheduleFrequency } from '../resources/campaigns.js';

export type ApiAccess = 'none' | 'read' | 'write';

export const ENTITLEMENTS = [
  'projects.max',
  'crawls.monthly',
  'crawls.max_urls',
  'crawls.javascript_rendering',
  'exports.excel',
  'positions.tracked_keywords',
  'keywords.project_limit',
  'positions.live_checks_per_day',
  'positions.monthly_spend',
  'search_console',
  'api.webhooks.max',
  'logs.import_max_bytes',
] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

export interface Plan {
  key: string;
  label: string;
  /** Catalogue order: `upgrade_to` names the first plan after this one that lifts a refusal. */
  rank: number;
  api: ApiAccess;
  /** Cost units per window; null means unlimited. */
  rateLimits: { minute: number | null; day: number | null };
  limits: Record<Entitlement, number | null>;
  scheduleFrequencies: ScheduleFrequency[];
}

export type PlanCatalogue = Record<string, Plan>;

export const DEFAULT_PLANS: PlanCatalogue = {
  free: {
    key: 'free',
    label: 'Free',
    rank: 0,
    api: 'none',
    rateLimits: { minute: 0, day: 0 },
    limits: {
      'projects.max': 1,
      'crawls.monthly': 2,
      'crawls.max_urls': 100,
      'crawls.javascript_rendering': 0,
      'exports.excel': 0,
      'positions.tracked_keywords': 0,
      'keywords.project_limit': 0,
      'positions.live_checks_per_day': 0,
      'positions.monthly_spend': 0,
      search_console: 0,
      'api.webhooks.max': 0,
      'logs.import_max_bytes': 0,
    },
    scheduleFrequencies: ['manual'],
  },
  starter: {
    key: 'starter',
    label: 'Starter',
    rank: 1,
    api: 'read',
    rateLimits: { minute: 60, day: 5_000 },
    limits: {
      'projects.max': 3,
      'crawls.monthly': 10,
      'crawls.max_urls': 1_000,
      'crawls.javascript_rendering': 0,
      'exports.excel': 0,
      'positions.tracked_keywords': 50,
      'keywords.project_limit': 50,
      'positions.live_checks_per_day': 5,
      'positions.monthly_spend': 100,
      search_console: null,
      'api.webhooks.max': 0,
      // An upload is a write, which this plan's read-only API does not open (spec: Authentication 8).
      'logs.import_max_bytes': 0,
    },
    scheduleFrequencies: ['manual', 'monthly', 'weekly'],
  },
  pro: {
    key: 'pro',
    label: 'Pro',
    rank: 2,
    api: 'write',
    rateLimits: { minute: 120, day: 20_000 },
    limits: {
      'projects.max': 10,
      'crawls.monthly': 60,
      'crawls.max_urls': 10_000,
      'crawls.javascript_rendering': null,
      'exports.excel': 0,
      'positions.tracked_keywords': 500,
      'keywords.project_limit': 200,
      'positions.live_checks_per_day': 50,
      'positions.monthly_spend': 1_000,
      search_console: null,
      'api.webhooks.max': 5,
      'logs.import_max_bytes': 1024 * 1024 * 1024,
    },
    scheduleFrequencies: ['manual', 'monthly', 'weekly', 'daily'],
  },
  agency: {
    key: 'agency',
    label: 'Agency',
    rank: 3,
    api: 'write',
    rateLimits: { minute: 600, day: 100_000 },
    limits: {
      'projects.max': null,
      'crawls.monthly': 500,
      'crawls.max_urls': 100_000,
      'crawls.javascript_rendering': null,
      'exports.excel': null,
      'positions.tracked_keywords': 5_000,
      'keywords.project_limit': 1_000,
      'positions.live_checks_per_day': 500,
      'positions.monthly_spend': 10_000,
      search_console: null,
      'api.webhooks.max': 25,
      'logs.import_max_bytes': 10 * 1024 * 1024 * 1024,
    },
    scheduleFrequencies: ['manual', 'monthly', 'weekly', 'daily'],
  },
};

/** The first plan above `current` that satisfies `lifts`, or null when none does. */
export function upgradeTo(plans: PlanCatalogue, current: string, lifts: (plan: Plan) => boolean): string | null {
  const rank = plans[current]?.rank ?? -1;
  const candidate = Object.values(plans)
    .filter((p) => p.rank > rank && lifts(p))
    .sort((a, b) => a.rank - b.rank)[0];
  return candidate?.key ?? null;
}

/** Whether `value` fits an entitlement limit (null unlimited, 0 not included). */
export function withinLimit(limit: number | null, value: number): boolean {
  return limit === null || value <= limit;
}

/** A quota as `GET /v1/usage` and the positions read show it: `remaining` is never negative. */
export function quotaOf(used: number, limit: number | null): { used: number; limit: number | null; remaining: number | null } {
  return { used, limit, remaining: limit === null ? null : Math.max(0, limit - used) };
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object | null ? DeepPartial<T[K]> : T[K] };
/** Overrides of one plan: any part of it, deep-merged over the catalogue's (arrays replace). */
export type PlanOverride = DeepPartial<Plan>;
export type PlanOverrides = Record<string, PlanOverride>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/**
 * The catalogue of the server's and the mock's `plans` option: deep-merged over the default
 * catalogue; a new key adds a plan (it starts from `free`, so unspecified limits are the most
 * restrictive, and ranks after the others).
 *
 * @example
 * resolvePlans({ agency: { rateLimits: { minute: 5 } } }).agency.rateLimits; // { minute: 5, day: 100000 }
 */
export function resolvePlans(overrides: PlanOverrides = {}): PlanCatalogue {
  const catalogue: PlanCatalogue = structuredClone(DEFAULT_PLANS);
  for (const [key, override] of Object.entries(overrides)) {
    const base = catalogue[key] ?? { ...structuredClone(DEFAULT_PLANS.free), key, label: key, rank: Object.keys(catalogue).length };
    catalogue[key] = merge(base, override) as Plan;
  }
  return catalogue;
}

/** `upgrade_to` of a refused `value` of an entitlement: the first plan above the caller's it fits. */
export function limitUpgrade(plans: PlanCatalogue, plan: Plan, entitlement: Entitlement, value: number): string | null {
  return upgradeTo(plans, plan.key, (p) => withinLimit(p.limits[entitlement], value));
}

/** `upgrade_to` of a feature the caller's plan does not include (its limit is 0). */
export function featureUpgrade(plans: PlanCatalogue, plan: Plan, entitlement: Entitlement): string | null {
  return upgradeTo(plans, plan.key, (p) => p.limits[entitlement] !== 0);
}

/** `upgrade_to` of a schedule frequency the caller's plan does not offer. */
export function frequencyUpgrade(plans: PlanCatalogue, plan: Plan, frequency: ScheduleFrequency): string | null {
  return upgradeTo(plans, plan.key, (p) => p.scheduleFrequencies.includes(frequency));
}
