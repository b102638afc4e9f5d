import { describe, expect, it } from 'vitest';
import { accessRefusal, planRefusal } from '../../src/rules/gates.js';
import { DEFAULT_PLANS } from '../../src/rules/plans.js';

describe('gates', () => {
  const plans = DEFAULT_PLANS;
  it('lets billing-exempt writes through a read-only plan', () => {
    expect(planRefusal({ method: 'POST' }, plans.starter, plans)).toEqual({ code: 'api.write_not_in_plan', extras: { upgrade_to: 'pro' } });
    expect(planRefusal({ method: 'POST', billingExempt: true }, plans.starter, plans)).toBeNull();
    expect(planRefusal({ method: 'GET' }, plans.free, plans)).toEqual({ code: 'api.not_in_plan', extras: { upgrade_to: 'starter' } });
  });

  it('checks the role, then the scope', () => {
    expect(accessRefusal({ adminOnly: true, scope: 'webhooks:read' }, 'member', [])).toEqual({ code: 'role.forbidden', extras: {} });
    expect(accessRefusal({ scope: 'webhooks:read' }, 'admin', [])).toEqual({ code: 'token.missing_scope', extras: { required_scopes: ['webhooks:read'] } });
    expect(accessRefusal({ scope: null }, 'member', [])).toBeNull();
  });
});
