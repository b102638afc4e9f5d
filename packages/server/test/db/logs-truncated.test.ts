/**
 * A truncated gzip upload (docs/decisions/logs.md, "Truncated files"): the import completes with
 * what decompresses, as `zcat` recovers it, says where the text stopped, and refuses the line the
 * cut went through rather than reading it as a shorter one. Over HTTP, on both databases.
 */
import { randomBytes } from 'node:crypto';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { USER_AGENTS } from '../../../../tests/support/access-log.js';

let h: Harness;
let projectId: string;

beforeAll(async () => {
  h = await startHarness({ logs: { resolver: null } });
  projectId = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://example.com/', name: 'Cut' } })).json()).data.id;
});
afterAll(async () => {
  await h?.close();
});

/** 20,000 lines, half of them Bing's (verified, inside Bing's ranges), with random paths: they compress to a few hundred KB. */
function log(): string {
  const lines: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const hour = String(i % 24).padStart(2, '0');
    const bot = i % 2 === 0;
    lines.push(`${bot ? '157.55.39.10' : '192.0.2.7'} - - [09/Mar/2026:${hour}:15:00 +0000] "GET /p/${randomBytes(6).toString('hex')} HTTP/1.1" 200 ${i} "-" "${bot ? USER_AGENTS.bingbot : USER_AGENTS.browser}"`);
  }
  return lines.join('\n') + '\n';
}

async function importOf(body: Buffer) {
  const res = await fetch(`${h.url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/gzip' }, body: body as BodyInit });
  expect(res.status).toBe(202);
  const id = (await res.json()).data.id;
  await h.server.jobs.idle();
  return (await (await h.call('GET', `/v1/projects/${projectId}/log-imports/${id}`)).json()).data;
}

describe('a gzip cut in the middle', () => {
  it('keeps what decompresses (what zcat recovers), says where it stopped, and refuses the cut line', async () => {
    const full = gzipSync(log());
    // Cut in the middle, at a point where the recovered text ends inside a line.
    let cut = full.subarray(0, Math.floor(full.length / 2));
    for (let at = Math.floor(full.length / 2); ; at++) {
      cut = full.subarray(0, at);
      if (!gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8').endsWith('\n')) break;
    }
    // What `zcat` gives of the cut file: the reference.
    const text = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH });
    const whole = text.toString('utf8').split('\n');
    const partial = whole.pop()!;
    expect(whole.length).toBeGreaterThan(5_000);
    expect(whole.length).toBeLessThan(20_000);
    expect(partial.length).toBeGreaterThan(0);

    const imp = await importOf(cut);
    expect(imp).toMatchObject({
      status: 'completed',
      error: null,
      size_bytes: cut.length,
      lines: { read: whole.length + 1, kept: whole.length, refused: 1 },
      refusals: [{ line: whole.length + 1, reason: 'truncated_line' }],
      truncation: { inflated_bytes: text.length, partial_line: true },
    });
    const bots = whole.filter((l) => l.includes('bingbot')).length;
    expect(imp.bot_hits).toBe(bots);
    expect(imp.human_hits).toBe(whole.length - bots);
    // Every recovered line counts in the per-day read; the cut one nowhere.
    const days = (await (await h.call('GET', `/v1/projects/${projectId}/logs/days?limit=100`)).json()).data as { hits: number }[];
    expect(days.reduce((n, d) => n + d.hits, 0)).toBe(whole.length);
  });

  it('says nothing of a complete file', async () => {
    const imp = await importOf(gzipSync('192.0.2.7 - - [10/Mar/2026:08:15:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"\n192.0.2.7 - - [10/Mar/2026:08:15:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"'));
    expect(imp).toMatchObject({ status: 'completed', lines: { read: 2, kept: 2, refused: 0 }, truncation: null });
  });
});

describe('a gzip bomb', () => {
  it('fails at once, with the reason, keeping nothing: a megabyte inflating to hundreds of megabytes is no access log', async () => {
    // 310 MiB of zeros: about 310 KB compressed, 1,000 times its size inflated (the limit: 300
    // times, past the first MiB sent). One line, so the parse spends nothing on it but inflating.
    const bomb = gzipSync(Buffer.alloc(310 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const imp = await importOf(bomb);
    expect(imp).toMatchObject({ status: 'failed', lines: { read: 0, kept: 0, refused: 0 }, human_hits: 0, bot_hits: 0 });
    expect(imp.error).toMatch(/^log_import\.inflation_limit: The file inflates to more than 300 times its size/);
    // 300 MiB inflated before the bound is passed (its floor is 1 MiB sent): about 3 s of a core
    // here, ten times that on a CI machine running its other lanes beside it.
  }, 180_000);

  it('reads a log that compresses as logs do, however large its ratio within the limit', async () => {
    // 20,000 lines as a server writes them, compressed as hard as gzip can: read whole.
    const text = log();
    const imp = await importOf(gzipSync(text, { level: 9 }));
    expect(imp).toMatchObject({ status: 'completed', lines: { read: 20_000, kept: 20_000 } });
  });
});

