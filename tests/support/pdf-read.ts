/**
 * Reading a rendered PDF back, as a reader would see it: the text of each page (pdfjs) and each
 * page as an image (pdftoppm from poppler-utils, when installed).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Text of each page, items joined by spaces. */
export async function pdfPages(buffer: Buffer): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(buffer), standardFontDataUrl, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

/** The text of the whole document as poppler's `pdftotext` extracts it; null when it is not installed. */
export function pdftotext(buffer: Buffer): string | null {
  const run = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: buffer });
  if (run.error) return null;
  if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr.toString()}`);
  return run.stdout.toString('utf8');
}

/** Whether `pdftoppm` (poppler-utils) can be run. */
export const hasPdftoppm = !spawnSync('pdftoppm', ['-v']).error;

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black to 255 white. */
  pixels: Uint8Array;
}

/** Renders every page with `pdftoppm -png` at `dpi` and decodes the images to gray. */
export async function pdfImages(buffer: Buffer, dpi = 40): Promise<GrayImage[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-pdf-images-'));
  try {
    await writeFile(path.join(dir, 'report.pdf'), buffer);
    const run = spawnSync('pdftoppm', ['-png', '-r', String(dpi), 'report.pdf', 'page'], { cwd: dir });
    if (run.status !== 0) throw new Error(`pdftoppm failed: ${run.stderr.toString()}`);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    return Promise.all(files.map(async (f) => decodeGrayPng(await readFile(path.join(dir, f)))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A minimal PNG decoder for what pdftoppm writes (8-bit gray or RGB, not interlaced), to one gray
 * byte per pixel.
 */
export function decodeGrayPng(png: Buffer): GrayImage {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 1;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]] ?? 0;
      if (data[8] !== 8 || channels === 0 || data[12] !== 0) throw new Error('expected an 8-bit gray or RGB, non-interlaced PNG');
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const bytes = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const at = y * stride + x;
      const a = x >= channels ? bytes[at - channels] : 0;
      const b = y > 0 ? bytes[at - stride] : 0;
      const c = x >= channels && y > 0 ? bytes[at - stride - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      bytes[at] = (line[x] + predictor) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height);
  const colour = Math.min(channels, 3);
  for (let i = 0; i < pixels.length; i++) {
    let sum = 0;
    for (let k = 0; k < colour; k++) sum += bytes[i * channels + k];
    pixels[i] = Math.round(sum / colour);
  }
  return { width, height, pixels };
}

/** Pixels darker than near-white in the rows above `fraction` of the height (the footer left out). */
export function inkAbove(image: GrayImage, fraction: number): number {
  let ink = 0;
  const rows = Math.floor(image.height * fraction);
  for (let i = 0; i < rows * image.width; i++) if (image.pixels[i] < 200) ink++;
  return ink;
}
