import { describe, expect, it } from 'vitest';
import { exportFilename } from '../../src/rules/exports.js';

describe('export files', () => {
  it('names a download by project slug and the day and time (UTC) the crawl finished', () => {
    expect(exportFilename('example-com', '2026-01-15T10:00:07.000Z', 'pdf', 'fr')).toBe('siteaudit-example-com-2026-01-15-1000-fr.pdf');
    expect(exportFilename(null, '2026-01-15T10:00:07.000Z', 'xlsx', 'en')).toBe('siteaudit-crawl-2026-01-15-1000-en.xlsx');
  });

  it('gives the reports of two crawls finished the same day two names (a before and an after)', () => {
    const before = exportFilename('debref', '2026-11-30T09:12:40.000Z', 'pdf', 'en');
    const after = exportFilename('debref', '2026-11-30T16:45:03.000Z', 'pdf', 'en');
    expect([before, after]).toEqual(['siteaudit-debref-2026-11-30-0912-en.pdf', 'siteaudit-debref-2026-11-30-1645-en.pdf']);
  });
});
