/**
 * Writes an upload's body to a file as it arrives, counting its bytes and hashing them (SHA-256,
 * the idempotency fingerprint's and the duplicate check's digest): past the plan's limit the
 * write stops and the file is removed (413). Memory holds a chunk at a time.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../http/errors.js';
import { refusalDetails } from '@siteaudit/schema/rules';

export interface ReceivedFile {
  size: number;
  /** SHA-256 of the bytes as sent, hex. */
  digest: string;
}

export async function receiveFile(body: Readable, file: string, maxBytes: number | null): Promise<ReceivedFile> {
  let size = 0;
  const hash = createHash('sha256');
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (maxBytes !== null && size > maxBytes) return done(new ApiError('log_import.too_large', { detail: refusalDetails.logImportTooLarge(maxBytes) }));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    // 0600: the file holds every address and user agent of the log; `wx` never follows a file already there.
    await pipeline(body, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    return { size, digest: hash.digest('hex') };
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}
