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
 * The attachment name of a download: `siteaudit-<project slug>-<day>-<hhmm>-<language>.<format>`,
 * the day and time (UTC) the crawl finished, so the French and the English report of one crawl,
 * and the reports of two crawls finished the same day (a before and an after), do not overwrite
 * each other.
 *
 * @example
 * exportFilename('example-com', '2026-01-15T10:00:07.000Z', 'pdf', 'fr'); // 'siteaudit-example-com-2026-01-15-1000-fr.pdf'
 */
export function exportFilename(projectSlug: string | null | undefined, finishedAt: string, format: ExportFileFormat, language: string): string {
  // Normalised to UTC; a value that is not a date is taken as it is rather than failing a download.
  const date = new Date(finishedAt);
  const iso = Number.isNaN(date.getTime()) ? finishedAt : date.toISOString();
  return `siteaudit-${projectSlug ?? 'crawl'}-${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}-${language}.${format}`;
}

/**
 * Whether a crawl can be exported: completed and settled, or failed because its site could not
 * be reached (blocked), whose report says so in one line (docs/decisions/exports.md).
 */
export function isExportableCrawl(crawl: { status: string; settled: boolean; blocked: boolean }): boolean {
  if (!crawl.settled) return false;
  return crawl.status === 'completed' || (crawl.status === 'failed' && crawl.blocked);
}
