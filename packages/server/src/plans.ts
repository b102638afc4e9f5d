import { DEFAULT_PLANS, type Plan, type PlanCatalogue } from '@siteaudit/schema';

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object | null ? DeepPartial<T[K]> : T[K] };
export type PlanOverrides = Record<string, DeepPartial<Plan>>;

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
 * The `plans` option deep-merges over the default catalogue; a new key adds a plan (it starts
 * from `free`, so unspecified limits are the most restrictive, and ranks after the others).
 */
export function resolvePlans(overrides: PlanOverrides = {}): PlanCatalogue {
  const catalogue: PlanCatalogue = structuredClone(DEFAULT_PLANS);
  for (const [key, override] of Object.entries(overrides)) {
    const base = catalogue[key] ?? { ...structuredClone(DEFAULT_PLANS.free), key, label: key, rank: Object.keys(catalogue).length };
    catalogue[key] = merge(base, override) as Plan;
  }
  return catalogue;
}
