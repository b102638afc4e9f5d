/**
 * Streams one uploaded log file through the line parser: read in 64 KiB chunks, gunzipped when it
 * starts with gzip's magic bytes, split into lines, folded into the aggregate. Memory holds one
 * chunk and the aggregate, never the file.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { createLogAggregator, REFUSAL_SAMPLES, type LogAggregator } from '@siteaudit/schema/rules';
import { publishedRangeCheck } from './bot-ranges.js';

/** A line longer than this is refused (and not held): no access log line comes near it. */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * Bytes read (and inflated) at a time. A chunk's text stays under V8's large-object size, so it
 * is young garbage that a scavenge frees; 1 MiB chunks went to the large-object space, freed only
 * by full collections, and the heap grew with them (docs/benchmarks.md, "Log import").
 */
const CHUNK_BYTES = 64 * 1024;

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Checked after each line: when `due()`, the parse waits for `run()` (the parse session spills
 * the aggregate there, and waits while the store is behind). Checking is a counter's read.
 */
export interface Pause {
  due(): boolean;
  run(): Promise<void>;
}

export async function parseLogFile(file: string, aggregator: LogAggregator = createLogAggregator(publishedRangeCheck()), pause?: Pause): Promise<LogAggregator> {
  const { aggregate, addRange } = aggregator;
  const raw = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const source = (await isGzip(file)) ? raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : raw;
  raw.on('error', (error) => source.destroy(error));
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let overlong = false;
  const tooLong = () => {
    aggregate.linesRead++;
    aggregate.refused++;
    if (aggregate.refusals.length < REFUSAL_SAMPLES) aggregate.refusals.push({ line: aggregate.linesRead, reason: 'line_too_long' });
  };
  try {
    await readLines();
  } finally {
    // A parse stopped midway (its import deleted) leaves the file stream open behind gunzip:
    // closed here, and awaited, so no descriptor keeps the file's bytes on disk.
    if (!raw.closed) {
      raw.destroy();
      await new Promise<void>((resolve) => raw.once('close', () => resolve()));
    }
  }
  return aggregator;

  async function readLines(): Promise<void> {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const text = rest + decoder.write(chunk);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        if (overlong) {
          overlong = false;
          tooLong();
        } else if (nl - start > MAX_LINE_CHARS) tooLong();
        else addRange(text, start, nl);
        start = nl + 1;
        if (pause?.due()) await pause.run();
      }
      rest = text.slice(start);
      if (rest.length > MAX_LINE_CHARS) {
        overlong = true;
        rest = '';
      }
    }
    rest += decoder.end();
    if (overlong) tooLong();
    else if (rest.length > 0) addRange(rest, 0, rest.length);
  }
}
