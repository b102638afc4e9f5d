import type { Readable } from 'node:stream';
import { renderPdf } from './pdf.js';
import type { ExportFileFormat, ExportSource } from './types.js';
import { renderXlsx } from './xlsx.js';

export { fixFor } from './fixes.js';
export { humanize, reportLabels, type ReportLabels } from './labels.js';
export { PDF_EXAMPLES_PER_ISSUE, PDF_FIXES_PER_PILLAR, PDF_PAGE_ROW_LIMIT, PDF_TOP_ISSUES, renderPdf } from './pdf.js';
export { collectTopIssues, type TopIssue } from './top-issues.js';
export { EXPORT_CONTENT_TYPES, type ExportFileFormat, type ExportLanguage, type ExportSource, type HealthPoint, type ReportLogs, type ReportLogUrl, type ReportBranding, type ReportChange, type ReportFix, type ReportPage, type ReportPillar } from './types.js';
export { EXCEL_MAX_ROWS, renderXlsx, XLSX_HYPERLINK_LIMIT } from './xlsx.js';

/** Picks the renderer for an export format. */
export function renderExport(format: ExportFileFormat, source: ExportSource): Readable {
  return format === 'pdf' ? renderPdf(source) : renderXlsx(source);
}
