import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where finished export files live. Keys are relative paths such as `<id>.pdf`. */
export interface BlobStore {
  put(key: string, stream: Readable, contentType: string): Promise<{ size: number }>;
  /** Rejects with BlobNotFoundError when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export class BlobNotFoundError extends Error {
  readonly code = 'blob.not_found';
  constructor(readonly key: string) {
    super(`No blob stored under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class InvalidBlobKeyError extends Error {
  readonly code = 'blob.invalid_key';
  constructor(readonly key: string) {
    super(`Invalid blob key: ${JSON.stringify(key)}`);
    this.name = 'InvalidBlobKeyError';
  }
}

const TEMP_SUFFIX = '.tmp';

/**
 * Keys are relative, slash-separated paths. Segments may not be empty, `.`/`..` or start with a dot,
 * so a key can neither escape the directory nor collide with an in-progress temp file.
 */
function resolveKey(root: string, key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new InvalidBlobKeyError(key);
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment.length === 0 || segment.startsWith('.') || !/^[A-Za-z0-9._-]+$/.test(segment)) {
      throw new InvalidBlobKeyError(key);
    }
  }
  return path.join(root, ...segments);
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * The default blob store: one file per key under `dir`. A put streams into a hidden temp file next to
 * its target, fsyncs it, then renames it into place, so readers see either nothing or the whole file,
 * never a partial export. The content type is not stored: the export format determines it.
 */
export function createDirectoryBlobStore(dir: string): BlobStore {
  const root = path.resolve(dir);

  return {
    async put(key, stream) {
      const target = resolveKey(root, key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      try {
        await pipeline(stream, counter, createWriteStream(temp, { flags: 'wx' }));
        // Flush to disk before the rename makes the file visible; otherwise a crash could leave a
        // complete-looking name over incomplete data.
        const handle = await open(temp, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return { size };
    },

    async get(key) {
      const target = resolveKey(root, key);
      // Opening first turns a missing file into a rejected promise instead of a later stream error.
      let handle;
      try {
        handle = await open(target, 'r');
      } catch (err) {
        if (isNotFound(err)) throw new BlobNotFoundError(key);
        throw err;
      }
      return handle.createReadStream();
    },

    async delete(key) {
      await rm(resolveKey(root, key), { force: true });
    },

    async exists(key) {
      try {
        return (await stat(resolveKey(root, key))).isFile();
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
  };
}
