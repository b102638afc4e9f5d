import { z } from 'zod';
import { Period, PeriodPreset, PlainDate, Uuid } from '../common.js';

export const POSITIONS_STATUSES = ['unconfigured', 'pending', 'active', 'paused'] as const;

export const PositionsKeyword = z
  .object({
    keyword: z.string().describe('canonical form: trimmed, lowercase, single spaces'),
    active: z.boolean(),
    measured: z.boolean().describe('false: never checked'),
    position: z.int().min(1).max(100).nullable().describe('null with measured true: outside the top 100'),
    url: z.string().nullable(),
    delta_1d: z.int().nullable(),
    delta_7d: z.int().nullable(),
    delta_30d: z.int().nullable(),
    search_volume: z.int().nullable(),
    keyword_difficulty: z.int().nullable(),
    search_intent: z.string().nullable(),
    serp_features: z.array(z.string()),
  })
  .meta({ id: 'PositionsKeyword' });
export type PositionsKeyword = z.infer<typeof PositionsKeyword>;

export const Positions = z
  .object({
    project_id: Uuid,
    status: z.enum(POSITIONS_STATUSES),
    tracker: z
      .object({
        location: z.string(),
        country: z.string(),
        language: z.string(),
        device: z.string(),
        active: z.boolean(),
        last_tracked_on: PlainDate.nullable(),
      })
      .nullable(),
    period: Period,
    summary: z.object({
      average_position: z.number().nullable(),
      ranking_keywords: z.int(),
      measured_keywords: z.int(),
      tracked_keywords: z.int(),
      top3: z.int(),
      top10: z.int(),
      visibility_percent: z.number().nullable().describe('null while no keyword is measured'),
      improved: z.int(),
      declined: z.int(),
      entered: z.int(),
      exited: z.int(),
    }),
    keywords: z.array(PositionsKeyword),
    quota: z.object({ used: z.int(), limit: z.int().nullable(), remaining: z.int().nullable() }),
  })
  .meta({ id: 'Positions', description: 'Rank tracking of a project over a period.' });
export type Positions = z.infer<typeof Positions>;

export const PeriodQuery = z.strictObject({ period: PeriodPreset.optional() });

const Keyword = z.string().trim().min(1).max(200);

export const TrackKeywordsBody = z
  .strictObject({ keywords: z.array(Keyword).min(1).max(100) })
  .meta({ id: 'TrackKeywordsBody' });
export const KeywordsBody = z
  .strictObject({ keywords: z.array(Keyword).min(1).max(1000) })
  .meta({ id: 'KeywordsBody' });
export const CheckKeywordBody = z.strictObject({ keyword: Keyword }).meta({ id: 'CheckKeywordBody' });

export const TrackKeywordsResult = z
  .object({ project_id: Uuid, tracked: z.array(z.string()), already_tracked: z.array(z.string()) })
  .meta({ id: 'TrackedKeywords' });
export const UntrackKeywordsResult = z
  .object({ project_id: Uuid, untracked: z.array(z.string()) })
  .meta({ id: 'UntrackedKeywords' });
export const KeywordsActivityResult = z
  .object({ project_id: Uuid, active: z.boolean(), changed: z.array(z.string()) })
  .meta({ id: 'KeywordsActivityResult' });
export const KeywordCheck = z
  .object({ project_id: Uuid, keyword: z.string(), status: z.enum(['queued']), date: PlainDate })
  .meta({ id: 'KeywordCheck' });
