import { describe, expect, it } from 'vitest';
import { exportFilename } from '../../src/rules/exports.js';

describe('export files', () => {
  it('names a download by project slug and the day the crawl finished', () => {
    expect(exportFilename('example-com', '2026-01-15T10:00:07.000Z', 'pdf', 'fr')).toBe('siteaudit-example-com-2026-01-15-fr.pdf');
    expect(exportFilename(null, '2026-01-15T10:00:07.000Z', 'xlsx', 'en')).toBe('siteaudit-crawl-2026-01-15-en.xlsx');
  });
});
