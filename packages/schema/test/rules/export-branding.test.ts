import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreateExportBody } from '../../src/resources/exports.js';
import { BRANDING_LOGO_MAX_BYTES, readLogo } from '../../src/rules/export-branding.js';
import { dataUrl, png } from '../../../../tests/support/images.js';

/** The start of a baseline JPEG: SOI, an APP0, then SOF0 with its height and width. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

describe('export branding (docs/decisions/export-branding.md)', () => {
  it('reads a PNG or JPEG logo from its own header', () => {
    expect(readLogo(dataUrl('png', png(120, 40)))).toMatchObject({ type: 'png', width: 120, height: 40 });
    expect(readLogo(dataUrl('jpeg', jpegHeader(300, 100)))).toMatchObject({ type: 'jpeg', width: 300, height: 100 });
  });

  it('refuses what is not a small PNG or JPEG, in English and French', () => {
    const refused = (value: string) => {
      const logo = readLogo(value);
      expect('error' in logo, value.slice(0, 60)).toBe(true);
      return (logo as { error: { en: string; fr: string } }).error;
    };
    expect(refused('https://agency.example/logo.png').en).toMatch(/data: URL/);
    expect(refused(`data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`).fr).toMatch(/PNG ou JPEG/);
    expect(refused('data:image/png;base64,abc').en).toMatch(/base64/);
    // The media type says PNG, the bytes are a JPEG: the bytes win.
    expect(refused(dataUrl('png', jpegHeader(10, 10))).en).toBe('The logo is not a PNG image');
    expect(refused(dataUrl('png', png(5000, 1))).en).toMatch(/4096 pixels/);
    expect(refused(dataUrl('png', png(2, 2, [0, 0, 0], BRANDING_LOGO_MAX_BYTES))).en).toBe('The logo is over 256 KiB');
    expect(readLogo(dataUrl('png', png(2, 2, [0, 0, 0], BRANDING_LOGO_MAX_BYTES - 200)))).toMatchObject({ type: 'png' });
  });

  it('validates the export body: optional branding, one field at least, no unknown field', () => {
    expect(CreateExportBody.safeParse({ format: 'pdf' }).success).toBe(true);
    expect(CreateExportBody.parse({ format: 'pdf', branding: { agency_name: '  Agence Dupont  ' } }).branding).toEqual({ agency_name: 'Agence Dupont' });
    expect(CreateExportBody.safeParse({ format: 'pdf', branding: {} }).success).toBe(false);
    expect(CreateExportBody.safeParse({ format: 'pdf', branding: { agency_name: 'A', colour: 'red' } }).success).toBe(false);
    expect(CreateExportBody.safeParse({ format: 'pdf', branding: { agency_name: 'x'.repeat(81) } }).success).toBe(false);
    expect(CreateExportBody.safeParse({ format: 'pdf', branding: { agency_name: 'Bad\u0000name' } }).success).toBe(false);
    const bad = CreateExportBody.safeParse({ format: 'pdf', branding: { logo: 'data:image/png;base64,AAAA' } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0].path).toEqual(['branding', 'logo']);
  });

  it('never throws on hostile input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.base64String().map((b) => `data:image/png;base64,${b}`), fc.uint8Array({ maxLength: 200 }).map((b) => dataUrl('jpeg', Buffer.from([0xff, 0xd8, ...b])))), (value) => {
        const logo = readLogo(value);
        expect('error' in logo || (logo.width >= 1 && logo.height >= 1)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
