import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';
import { SCOPES } from '../scopes.js';

export const Me = z
  .object({
    token: z.object({
      id: Uuid,
      name: z.string(),
      scopes: z.array(z.enum(SCOPES)),
      expires_at: DateTime,
      last_used_at: DateTime.nullable(),
      created_at: DateTime,
    }),
    user: z.object({ name: z.string(), email: z.string() }),
    team: z.object({ slug: z.string(), name: z.string() }),
    plan: z.object({ key: z.string(), label: z.string() }),
    api_access: z.array(z.enum(['read', 'write'])),
  })
  .meta({ id: 'Me', description: 'The token making the call, its holder, team and plan.' });
export type Me = z.infer<typeof Me>;

export const RateLimitWindow = z.enum(['minute', 'day']);

export const Usage = z
  .object({
    rate_limits: z.array(
      z.object({
        window: RateLimitWindow,
        window_seconds: z.int(),
        unit: z.literal('cost'),
        limit: z.int().nullable().describe('null means unlimited; 0 means not included in the plan'),
        used: z.int(),
        remaining: z.int().nullable(),
        resets_in_seconds: z.int(),
      }),
    ),
    quotas: z.array(
      z.object({
        entitlement: z.string(),
        used: z.int(),
        limit: z.int().nullable().describe('null means unlimited; 0 means not included in the plan'),
        remaining: z.int().nullable(),
      }),
    ),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;

export const OPERATION_KINDS = ['crawl', 'keyword_research', 'security_scan', 'project_preflight', 'backlink_sync'] as const;

export const Operation = z
  .object({
    kind: z.enum(OPERATION_KINDS),
    project_id: Uuid,
    started_at: DateTime,
    crawl: z
      .object({
        id: Uuid,
        stage: z.string(),
        progress: z.int().min(0).max(100),
        pages_crawled: z.int(),
        page_budget: z.int(),
      })
      .nullable(),
  })
  .meta({ id: 'Operation', description: 'A running operation of the team.' });
export type Operation = z.infer<typeof Operation>;

export const OperationList = z.object({
  data: z.array(Operation),
  meta: z.object({ total: z.int(), shown: z.int() }),
});
