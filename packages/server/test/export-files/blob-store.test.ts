/** The directory blob store: round trip, missing keys, key validation, and all-or-nothing writes. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobStore, createDirectoryBlobStore, InvalidBlobKeyError } from '../../src/modules/exports/blob-store.js';
import { EXPORT_CONTENT_TYPES, type ExportFileFormat, renderExport, renderPdf } from '../../src/reports/index.js';
import { readAll, syntheticSource } from '../../../../tests/support/report-fixtures.js';

let dir: string;
let store: BlobStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'siteaudit-blobs-'));
  store = createDirectoryBlobStore(dir);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file under dir, relative, hidden ones included. */
async function filesIn(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name))).sort();
}

/** A stream that sends `first`, then waits for `release()` before sending `rest` or failing. */
function heldStream(first: string) {
  const stream = new PassThrough();
  stream.write(first);
  return {
    stream,
    finish(rest: string) {
      stream.end(rest);
    },
    fail(err: Error) {
      stream.destroy(err);
    },
  };
}

describe('createDirectoryBlobStore', () => {
  it('puts, reports the size, gets, tells existence and deletes', async () => {
    const body = Buffer.from('%PDF-1.7 fake export body é');
    const { size } = await store.put('exports/2025/abc.pdf', Readable.from([body]), EXPORT_CONTENT_TYPES.pdf);
    expect(size).toBe(body.length);
    expect(await store.exists('exports/2025/abc.pdf')).toBe(true);
    expect(await readAll(await store.get('exports/2025/abc.pdf'))).toEqual(body);
    expect(await readFile(path.join(dir, 'exports', '2025', 'abc.pdf'))).toEqual(body);

    await store.delete('exports/2025/abc.pdf');
    expect(await store.exists('exports/2025/abc.pdf')).toBe(false);
    await expect(store.get('exports/2025/abc.pdf')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('treats missing keys calmly', async () => {
    expect(await store.exists('nothing.xlsx')).toBe(false);
    await expect(store.delete('nothing.xlsx')).resolves.toBeUndefined();
    await expect(store.get('nothing.xlsx')).rejects.toMatchObject({ code: 'blob.not_found', key: 'nothing.xlsx' });
  });

  it('refuses keys that could leave the directory or hit a temp file', async () => {
    for (const key of ['', '../escape.pdf', 'a/../../b.pdf', '/etc/passwd', 'a//b.pdf', '.hidden', 'a/.x.tmp', 'a\\b.pdf', 'a b.pdf']) {
      await expect(store.put(key, Readable.from(['x']), 'text/plain'), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.exists(key), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
    expect(await filesIn(dir)).toEqual([]);
  });

  it('writes atomically: the name appears only once the content is complete', async () => {
    const held = heldStream('first half, ');
    const put = store.put('exports/a.pdf', held.stream, EXPORT_CONTENT_TYPES.pdf);
    // Wait until the temp file exists, i.e. data is on its way to disk.
    while ((await filesIn(dir)).length === 0) await new Promise((r) => setImmediate(r));
    expect(await store.exists('exports/a.pdf')).toBe(false);
    const [temp] = await filesIn(dir);
    expect(path.basename(temp)).toMatch(/^\.a\.pdf\.[0-9a-f]+\.tmp$/);

    held.finish('second half');
    await put;
    expect((await readAll(await store.get('exports/a.pdf'))).toString()).toBe('first half, second half');
    expect(await filesIn(dir)).toEqual([path.join('exports', 'a.pdf')]);
  });

  it('leaves no file, and keeps the previous one, when the source fails midway', async () => {
    await store.put('exports/a.pdf', Readable.from(['version 1']), EXPORT_CONTENT_TYPES.pdf);

    const held = heldStream('version 2, partial');
    const put = store.put('exports/a.pdf', held.stream, EXPORT_CONTENT_TYPES.pdf);
    while ((await filesIn(dir)).length < 2) await new Promise((r) => setImmediate(r));
    // While the new version is being written, readers still get the old one, whole.
    expect((await readAll(await store.get('exports/a.pdf'))).toString()).toBe('version 1');
    held.fail(new Error('renderer crashed'));
    await expect(put).rejects.toThrow('renderer crashed');

    expect((await readAll(await store.get('exports/a.pdf'))).toString()).toBe('version 1');
    expect(await filesIn(dir)).toEqual([path.join('exports', 'a.pdf')]);

    await expect(store.put('exports/b.pdf', held.stream, 'application/pdf')).rejects.toThrow();
    expect(await store.exists('exports/b.pdf')).toBe(false);
  });

  it('stores a rendered export end to end', async () => {
    const { source } = syntheticSource({ pages: 5 });
    const { size } = await store.put('exports/report.pdf', renderPdf(source), EXPORT_CONTENT_TYPES.pdf);
    const stored = await readAll(await store.get('exports/report.pdf'));
    expect(stored.length).toBe(size);
    expect(stored.subarray(0, 5).toString()).toBe('%PDF-');
    expect(stored.subarray(-6).toString()).toMatch(/%%EOF/);
  });
});
