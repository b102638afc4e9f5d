/** Where export files are kept by default: a file of its own, so the CLI's admin finds the folder without loading the exporters. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function defaultExportDirectory(inMemory: boolean): string {
  if (process.env.SITEAUDIT_EXPORT_DIR) return process.env.SITEAUDIT_EXPORT_DIR;
  return inMemory ? mkdtempSync(join(tmpdir(), 'siteaudit-exports-')) : join(process.cwd(), '.siteaudit', 'exports');
}
