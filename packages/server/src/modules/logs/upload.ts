/**
 * Writes an upload's body to a file as it arrives, counting bytes: past the plan's limit the
 * write stops and the file is removed (413). Memory holds a chunk at a time.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../http/errors.js';

export async function receiveFile(body: Readable, file: string, maxBytes: number | null): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (maxBytes !== null && size > maxBytes) done(new ApiError('log_import.too_large', { detail: `The file is larger than the plan's ${maxBytes} bytes.` }));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(file));
    return size;
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}
