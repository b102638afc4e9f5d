/**
 * `dev`'s human-readable log (observability/logger.ts): a request is one short line (method, path,
 * status, duration, operation), where pino-pretty printed one line per field (~10 per request
 * while a client polls); other entries are one line each with their fields.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { compactRequestLine, createLogger } from '../src/observability/logger.js';

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

async function devLines(write: (log: Awaited<ReturnType<typeof createLogger>>) => void): Promise<string[]> {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const log = await createLogger({ level: 'info', pretty: true, destination: destination as never });
  write(log);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return plain(text).split('\n').filter(Boolean);
}

describe('dev log lines', () => {
  it('prints a request as one short line', async () => {
    const lines = await devLines((log) =>
      log.info({ req_id: 'r1', op: 'getCrawl', team: 'demo', method: 'GET', path: '/v1/crawls/c1', status: 200, ms: 2.1, cost: 1 }, 'request'),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO: GET \/v1\/crawls\/c1 200 2\.1 ms getCrawl$/);
  });

  it('keeps other entries on one line each, with their fields', async () => {
    const lines = await devLines((log) => {
      log.info({ crawl: 'c1', team: 'demo', pages_crawled: 12, pages_per_second: 4.5 }, 'crawl progress');
      log.info({ url: 'http://127.0.0.1:8080' }, 'server started');
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('crawl progress');
    expect(lines[0]).toContain('"pages_per_second":4.5');
    expect(lines[1]).toContain('server started');
  });

  it('leaves lines that are not requests untouched, and a request line without its fields', () => {
    const other = '{"level":30,"msg":"crawl started","crawl":"c1"}\n';
    expect(compactRequestLine(other)).toBe(other);
    const request = `${JSON.stringify({ level: 30, time: 1, msg: 'request', req_id: 'r', method: 'POST', path: '/v1/projects', status: 201, ms: 9, op: 'createProject', team: 't', cost: 1 })}\n`;
    expect(JSON.parse(compactRequestLine(request))).toEqual({ level: 30, time: 1, msg: 'POST /v1/projects 201 9 ms createProject' });
  });
});
