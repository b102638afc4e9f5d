import { z } from 'zod';
import { DateTime, int64, Period, PlainDate, Uuid } from '../common.js';

export const SEARCH_CONSOLE_STATUSES = ['unconfigured', 'pending', 'ready', 'error'] as const;
/** Why this server does not synchronise: `no_provider`, its operator turned the Search Console provider off. */
export const SEARCH_CONSOLE_SYNC_UNAVAILABLE_REASONS = ['no_provider'] as const;

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
    // `status` keeps the spec's meanings (`pending`: linked, not yet synchronised); whether a
    // synchronisation will ever come is this server's to say (docs/decisions/search-console.md).
    sync: z
      .object({
        available: z.boolean().describe('whether this server synchronises linked properties'),
        reason: z.enum(SEARCH_CONSOLE_SYNC_UNAVAILABLE_REASONS).nullable().describe('why synchronisation is unavailable; null when it is available'),
      })
      .describe('Whether linked properties are synchronised on this server: a `pending` property with `available: false` stays pending until the operator enables synchronisation.'),
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
