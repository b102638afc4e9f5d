/** The plan, role and scope gates every operation passes (docs/decisions/request-pipeline.md). */
import type { ErrorCode } from '../errors.js';
import type { OperationInfo } from '../operations.js';
import type { Role, Scope } from '../scopes.js';
import { upgradeTo, type Plan, type PlanCatalogue } from './plans.js';
import type { ProblemExtras } from './problem-bodies.js';

/** A refusal of a common rule: the catalogue code and the problem's extras. */
export interface Refusal {
  code: ErrorCode;
  extras: ProblemExtras;
}

/**
 * The first gate of a request (docs/decisions/request-pipeline.md): the team's plan opens the
 * verb, before the rate limit.
 * A plan without API answers `api.not_in_plan`; a write on a read-only plan
 * `api.write_not_in_plan`, unless the operation is never refused by billing (untrack, deleting a
 * webhook: they only free things). Null when the plan lets the call through.
 */
export function planRefusal(op: Pick<OperationInfo, 'method' | 'billingExempt'>, plan: Plan, plans: PlanCatalogue): Refusal | null {
  if (plan.api === 'none') return { code: 'api.not_in_plan', extras: { upgrade_to: upgradeTo(plans, plan.key, (p) => p.api !== 'none') } };
  if (op.method !== 'GET' && plan.api !== 'write' && !op.billingExempt) {
    return { code: 'api.write_not_in_plan', extras: { upgrade_to: upgradeTo(plans, plan.key, (p) => p.api === 'write') } };
  }
  return null;
}

/**
 * After the rate limit: the member's role (webhooks are for owners and admins, `role.forbidden`)
 * then the token's scope (`token.missing_scope` with `required_scopes`). Null when both pass.
 */
export function accessRefusal(op: Pick<OperationInfo, 'adminOnly' | 'scope'>, role: Role, scopes: readonly Scope[]): Refusal | null {
  if (op.adminOnly && role === 'member') return { code: 'role.forbidden', extras: {} };
  if (op.scope && !scopes.includes(op.scope)) return { code: 'token.missing_scope', extras: { required_scopes: [op.scope] } };
  return null;
}
