import { z } from 'zod';
import { DateTime, int64, Uuid } from '../common.js';
import { agencyNameProblem, BRANDING_LOGO_MAX_BYTES, BRANDING_LOGO_MAX_CHARS, BRANDING_NAME_MAX, readLogo } from '../rules/export-branding.js';

export const EXPORT_FORMATS = ['pdf', 'xlsx'] as const;
/** queued → generating → ready → expired; a failure ends `failed` (docs/decisions/exports.md). */
export const EXPORT_STATUSES = ['queued', 'generating', 'ready', 'failed', 'expired'] as const;

export const Export = z
  .object({
    id: Uuid,
    crawl_id: Uuid,
    format: z.enum(EXPORT_FORMATS),
    status: z.enum(EXPORT_STATUSES),
    size_bytes: int64(z.int()).nullable(),
    download_url: z.string().nullable().describe('set when ready, until expires_at'),
    error: z.string().nullable(),
    created_at: DateTime,
    finished_at: DateTime.nullable(),
    expires_at: DateTime.nullable(),
  })
  .meta({ id: 'Export' });
export type Export = z.infer<typeof Export>;

/**
 * Cover branding (an extension, docs/decisions/export-branding.md): the agency's name and logo on
 * the report's cover. Validated here, so the server and the mock refuse the same.
 */
export const ExportBranding = z
  .strictObject({
    agency_name: z
      .string()
      .trim()
      .min(1)
      .max(BRANDING_NAME_MAX)
      .superRefine((value, ctx) => {
        const problem = agencyNameProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem.en, params: { code: 'invalid_value', fr: problem.fr } });
      })
      .optional()
      .describe(`Printed on the cover ("Prepared by …"), ${BRANDING_NAME_MAX} characters at most`),
    logo: z
      .string()
      .max(BRANDING_LOGO_MAX_CHARS, { abort: true })
      .superRefine((value, ctx) => {
        const logo = readLogo(value);
        if ('error' in logo) ctx.addIssue({ code: 'custom', message: logo.error.en, params: { code: 'invalid_value', fr: logo.error.fr } });
      })
      .optional()
      .describe(`A data: URL of a PNG or JPEG image (data:image/png;base64,…), ${BRANDING_LOGO_MAX_BYTES / 1024} KiB at most, up to 4096 pixels a side`),
  })
  .refine((b) => b.agency_name !== undefined || b.logo !== undefined, { message: 'Give agency_name, logo or both', params: { code: 'invalid_value', fr: 'Indiquez agency_name, logo ou les deux' } })
  .meta({ id: 'ExportBranding' });
export type ExportBranding = z.infer<typeof ExportBranding>;

export const CreateExportBody = z
  .strictObject({ format: z.enum(EXPORT_FORMATS), branding: ExportBranding.optional().describe('Cover branding (an extension): the agency name and logo; PDF only, the workbook prints the name') })
  .meta({ id: 'CreateExportBody' });
export const ExportParams = z.strictObject({ export: Uuid });
