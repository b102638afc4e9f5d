import { z } from 'zod';
import { DateTime, int64, Period, PlainDate, Uuid } from '../common.js';

export const SEARCH_CONSOLE_STATUSES = ['unconfigured', 'pending', 'ready', 'error'] as const;

const Metrics = {
  clicks: int64(z.int()),
  impressions: int64(z.int()),
  ctr: z.number().describe('clicks / impressions, 0..1'),
  position: z.number().nullable().describe('mean position weighted by impressions'),
};

export const SearchConsole = z
  .object({
    project_id: Uuid,
    status: z.enum(SEARCH_CONSOLE_STATUSES),
    property: z.string().nullable(),
    synced_at: DateTime.nullable(),
    performance: z.object({
      period: Period,
      totals: z.object(Metrics).nullable(),
      daily: z.array(z.object({ date: PlainDate, ...Metrics })),
    }),
    indexation: z
      .object({
        inspected: z.int(),
        indexed: z.int(),
        not_indexed: z.int(),
        as_of: DateTime,
      })
      .nullable(),
  })
  .meta({ id: 'SearchConsole', description: 'Search Console performance and indexation of a project.' });
export type SearchConsole = z.infer<typeof SearchConsole>;
