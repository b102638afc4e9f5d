import type { ExportStrings, formatters } from '../i18n.js';
import type { ReportLabels } from '../labels.js';
import type { ExportLanguage, ExportSource } from '../types.js';
import type { Layout } from './layout.js';

export type Formatters = ReturnType<typeof formatters>;

/** What every part of the PDF draws with: the page layout, the wording, numbers and labels. */
export interface PdfContext {
  layout: Layout;
  source: ExportSource;
  language: ExportLanguage;
  t: ExportStrings;
  f: Formatters;
  labels: ReportLabels;
}
