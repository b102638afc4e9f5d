/**
 * Export files (docs/decisions/exports.md): their content types, how long a ready
 * export stays downloadable, and the attachment name, alike from the server and the mock.
 */

export const EXPORT_CONTENT_TYPES: {
  readonly pdf: 'application/pdf';
  readonly xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
} = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
export type ExportFileFormat = keyof typeof EXPORT_CONTENT_TYPES;

/** Days a ready export stays downloadable by default (the server's `exports.retentionDays`). */
export const DEFAULT_EXPORT_RETENTION_DAYS = 7;

/**
 * The attachment name of a download: `siteaudit-<project slug>-<day the crawl finished>.<format>`.
 *
 * @example
 * exportFilename('example-com', '2026-01-15T10:00:07.000Z', 'pdf'); // 'siteaudit-example-com-2026-01-15.pdf'
 */
export function exportFilename(projectSlug: string | null | undefined, finishedAt: string, format: ExportFileFormat): string {
  return `siteaudit-${projectSlug ?? 'crawl'}-${finishedAt.slice(0, 10)}.${format}`;
}
