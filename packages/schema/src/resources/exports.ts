import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';

export const EXPORT_FORMATS = ['pdf', 'xlsx'] as const;
/** queued → generating → ready → expired; a failure ends `failed` (docs/decisions/exports.md). */
export const EXPORT_STATUSES = ['queued', 'generating', 'ready', 'failed', 'expired'] as const;

export const Export = z
  .object({
    id: Uuid,
    crawl_id: Uuid,
    format: z.enum(EXPORT_FORMATS),
    status: z.enum(EXPORT_STATUSES),
    size_bytes: z.int().nullable(),
    download_url: z.string().nullable().describe('set when ready, until expires_at'),
    error: z.string().nullable(),
    created_at: DateTime,
    finished_at: DateTime.nullable(),
    expires_at: DateTime.nullable(),
  })
  .meta({ id: 'Export' });
export type Export = z.infer<typeof Export>;

export const CreateExportBody = z.strictObject({ format: z.enum(EXPORT_FORMATS) }).meta({ id: 'CreateExportBody' });
export const ExportParams = z.strictObject({ export: Uuid });
