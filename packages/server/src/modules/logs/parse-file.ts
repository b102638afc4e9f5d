/**
 * Streams one uploaded log file through the line parser: read in 64 KiB chunks, gunzipped when it
 * starts with gzip's magic bytes, split into lines, folded into the aggregate. Memory holds one
 * chunk and the aggregate, never the file.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { createLogAggregator, INFLATION_LIMIT, inflatesTooMuch, MAX_LOG_LINE_CHARS, type LogAggregator } from '@siteaudit/schema/rules';
import { publishedRangeCheck } from './bot-ranges.js';

/** A line longer than this is refused (and not held): no access log line comes near it (the mock's bound too). */
export const MAX_LINE_CHARS = MAX_LOG_LINE_CHARS;

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

/** What `inflate` found at the end of the gzip stream. */
interface Inflated {
  stream: Readable;
  /** Bytes of text out so far; `cut` once the stream has ended short of its trailer. */
  bytes: number;
  cut: boolean;
}

/**
 * The file's text, gunzipped, keeping what decompresses of a stream cut short (a truncated file;
 * `zcat` does the same). zlib reports the missing end as an error once its input is spent, and an
 * errored stream drops what it still buffers: so gunzip is never paused (each piece it inflates
 * goes straight on to `stream`, whose reader may be slow) and backpressure is applied to the
 * file read instead. Any other gzip error (corrupt data) fails the parse.
 */
function inflate(raw: ReadStream, size: number): Inflated {
  const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
  const stream = new PassThrough({ highWaterMark: 4 * CHUNK_BYTES });
  const out: Inflated = { stream, bytes: 0, cut: false };
  let inFull = false;
  let outFull = false;
  const flow = () => (inFull || outFull ? raw.pause() : raw.resume());
  raw.on('data', (chunk) => {
    if (!gunzip.write(chunk)) {
      inFull = true;
      flow();
    }
  });
  raw.on('end', () => gunzip.end());
  raw.on('error', (error) => stream.destroy(error));
  gunzip.on('drain', () => {
    inFull = false;
    flow();
  });
  gunzip.on('data', (chunk: Buffer) => {
    out.bytes += chunk.length;
    // A gzip bomb: the parse fails with the bound's code (rules/log-inflation.ts), against the
    // file's whole size, as the mock counts it.
    if (inflatesTooMuch(out.bytes, size)) return stream.destroy(new Error(`${INFLATION_LIMIT}: more than ${out.bytes} bytes of text from a file of ${size}`));
    if (!stream.write(chunk)) {
      outFull = true;
      flow();
    }
  });
  stream.on('drain', () => {
    outFull = false;
    flow();
  });
  gunzip.on('end', () => stream.end());
  gunzip.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'Z_BUF_ERROR') return stream.destroy(error);
    out.cut = true;
    stream.end();
  });
  // A stopped parse destroys `stream`: the file read stops with it.
  stream.on('close', () => {
    raw.destroy();
    gunzip.destroy();
  });
  return out;
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
  const { addRange } = aggregator;
  const raw = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const inflated = (await isGzip(file)) ? inflate(raw, (await stat(file)).size) : null;
  const source = inflated?.stream ?? raw;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let overlong = false;
  const tooLong = () => aggregator.refuse('line_too_long');
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
      // Inside a line already too long, a chunk with no line end is skipped undecoded: a line of
      // hundreds of megabytes (a gzip bomb of zeros, a binary upload) costs its inflation and a
      // byte scan, not a text decoding. A character the skip cuts is in the refused line.
      if (overlong && chunk.indexOf(10) === -1) continue;
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
    // A file cut short: its last line, cut mid-way, is refused rather than read as a shorter one.
    if (inflated?.cut) aggregator.truncated(inflated.bytes, overlong ? '' : rest);
    else if (!overlong && rest.length > 0) addRange(rest, 0, rest.length);
  }
}
