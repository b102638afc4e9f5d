/**
 * The plan-limit refusals (docs/plans.md), thrown alike by the server's handlers and the mock's
 * business functions: the catalogue code, and in `upgrade_to` the first plan that would allow it.
 */
import type { ErrorCode } from '../errors.js';
import type { Localized } from '../rules/problem-bodies.js';
import { featureUpgrade, limitUpgrade, withinLimit, type Entitlement, type Plan, type PlanCatalogue } from '../rules/plans.js';
import { ApiError } from './problem.js';

/** Refuses with `code` when `value` does not fit the plan's `entitlement`. */
export function assertWithinPlan(plans: PlanCatalogue, plan: Plan, entitlement: Entitlement, value: number, code: ErrorCode, detail?: string | Localized): void {
  if (withinLimit(plan.limits[entitlement], value)) return;
  const upgrade_to = limitUpgrade(plans, plan, entitlement, value);
  throw new ApiError(code, detail === undefined ? { upgrade_to } : { detail, upgrade_to });
}

/** Refuses with `code` when the plan does not include the feature (a limit of 0, docs/plans.md). */
export function assertIncluded(plans: PlanCatalogue, plan: Plan, entitlement: Entitlement, code: ErrorCode): void {
  if (plan.limits[entitlement] !== 0) return;
  throw new ApiError(code, { upgrade_to: featureUpgrade(plans, plan, entitlement) });
}
