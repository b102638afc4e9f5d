import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';

/** The five pillars; `technique` is the spec's key, the others are ours (docs/decisions/scorecard.md). */
export const PILLAR_KEYS = ['technique', 'contenu', 'accessibilite', 'acquisition', 'logs'] as const;
export const PILLAR_STATUSES = ['measured', 'not_measured', 'unavailable'] as const;

export const ScorecardPillar = z
  .object({
    key: z.enum(PILLAR_KEYS),
    score: z.int().min(0).max(100).nullable().describe('null when the pillar cannot be measured, never 0'),
    status: z.enum(PILLAR_STATUSES),
    available: z.boolean(),
    version: z.int().min(1),
    as_of: DateTime.nullable(),
    blocked_reason: z.string().nullable(),
    axes: z.array(
      z.object({
        key: z.string(),
        score: z.int().min(0).max(100).nullable(),
        weight: z.number().min(0).max(1),
      }),
    ),
  })
  .meta({ id: 'ScorecardPillar' });

export const Scorecard = z
  .object({ project_id: Uuid, pillars: z.array(ScorecardPillar) })
  .meta({ id: 'Scorecard', description: 'Five pillars, each scored on its own. There is no global average.' });
export type Scorecard = z.infer<typeof Scorecard>;
