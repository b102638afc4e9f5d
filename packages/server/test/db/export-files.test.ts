/**
 * Where export files land: `<directory>/<id>.<format>` (by default `./.siteaudit/exports/<id>.pdf`,
 * not `.siteaudit/exports/exports/…`), and an export stored before under `exports/<id>.<format>`
 * still downloads. Deleting a project or a campaign removes its exports' files, also one written
 * while the deletion ran.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';
import { createDirectoryBlobStore } from '../../src/modules/exports/blob-store.js';

let h: Harness;
let site: Site;
let directory: string;
let crawlId: string;
/** Runs once, inside the next file's write (after its bytes are read, before it is in place). */
let duringPut: (() => Promise<void>) | null = null;

/** A project with its default campaign crawled: ids of the three. */
async function crawledProject(name: string): Promise<{ project: string; campaign: string; crawl: string }> {
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name } })).json()).data.id as string;
  const campaign = (await (await h.call('GET', `/v1/projects/${project}/campaigns`)).json()).data[0].id as string;
  const crawl = (await (await h.call('POST', `/v1/campaigns/${campaign}/crawls`, { headers: { 'idempotency-key': `files-${name}` } })).json()).data.id as string;
  await h.server.jobs.idle();
  return { project, campaign, crawl };
}

async function readyExport(crawl: string, format: 'pdf' | 'xlsx'): Promise<string> {
  const id = (await (await h.call('POST', `/v1/crawls/${crawl}/exports`, { body: { format } })).json()).data.id as string;
  await h.server.jobs.idle();
  expect((await (await h.call('GET', `/v1/exports/${id}`)).json()).data.status).toBe('ready');
  return id;
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'siteaudit-export-files-'));
  const files = createDirectoryBlobStore(directory);
  const store = {
    ...files,
    async put(key: string, stream: Readable, contentType: string) {
      const run = duringPut;
      duringPut = null;
      if (!run) return files.put(key, stream, contentType);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      await run();
      const { Readable: Stream } = await import('node:stream');
      return files.put(key, Stream.from([Buffer.concat(chunks)]), contentType);
    },
  };
  h = await startHarness({ exports: { directory, store } });
  site = await startSite();
  crawlId = (await crawledProject('Files')).crawl;
});
afterAll(async () => {
  await h.close();
  await site.close();
  await rm(directory, { recursive: true, force: true });
});

describe('export files', () => {
  it('keeps an export as <directory>/<id>.<format>, and still serves one stored under exports/<id>.<format>', async () => {
    const id = (await (await h.call('POST', `/v1/crawls/${crawlId}/exports`, { body: { format: 'pdf' } })).json()).data.id as string;
    await h.server.jobs.idle();
    expect((await (await h.call('GET', `/v1/exports/${id}`)).json()).data.status).toBe('ready');
    expect(await readdir(directory)).toEqual([`${id}.pdf`]);
    const size = (await (await h.call('GET', `/v1/exports/${id}/download`)).arrayBuffer()).byteLength;

    // As an earlier version stored it: the file in exports/, the row's key saying so.
    await mkdir(path.join(directory, 'exports'));
    await copyFile(path.join(directory, `${id}.pdf`), path.join(directory, 'exports', `${id}.pdf`));
    await rm(path.join(directory, `${id}.pdf`));
    await h.server.knex('exports').where({ id }).update({ blob_key: `exports/${id}.pdf` });
    const legacy = await h.call('GET', `/v1/exports/${id}/download`);
    expect(legacy.status).toBe(200);
    expect((await legacy.arrayBuffer()).byteLength).toBe(size);
    await rm(path.join(directory, 'exports'), { recursive: true });
    await h.server.knex('exports').where({ id }).update({ blob_key: `${id}.pdf` });
  });

  it("removes a campaign's export files with it, and no one else's", async () => {
    const kept = await crawledProject('Kept');
    const keptFile = `${await readyExport(kept.crawl, 'pdf')}.pdf`;
    const gone = await crawledProject('Campaign gone');
    const files = [`${await readyExport(gone.crawl, 'pdf')}.pdf`, `${await readyExport(gone.crawl, 'xlsx')}.xlsx`];
    expect(await readdir(directory)).toEqual(expect.arrayContaining([...files, keptFile]));

    expect((await h.call('DELETE', `/v1/campaigns/${gone.campaign}`)).status).toBe(204);
    const left = await readdir(directory);
    expect(left).not.toEqual(expect.arrayContaining([files[0]]));
    expect(left).not.toEqual(expect.arrayContaining([files[1]]));
    expect(left).toContain(keptFile);
    expect((await h.call('GET', `/v1/exports/${keptFile.split('.')[0]}/download`)).status).toBe(200);
  });

  it("removes a project's export files with it, one stored under an earlier key too", async () => {
    const gone = await crawledProject('Project gone');
    const id = await readyExport(gone.crawl, 'pdf');
    await mkdir(path.join(directory, 'exports'), { recursive: true });
    await copyFile(path.join(directory, `${id}.pdf`), path.join(directory, 'exports', `${id}.pdf`));
    await rm(path.join(directory, `${id}.pdf`));
    await h.server.knex('exports').where({ id }).update({ blob_key: `exports/${id}.pdf` });

    expect((await h.call('DELETE', `/v1/projects/${gone.project}`)).status).toBe(204);
    expect(await readdir(path.join(directory, 'exports'))).toEqual([]);
    expect(await readdir(directory)).not.toContain(`${id}.pdf`);
  });

  it('leaves no file of an export whose campaign is deleted while it is written', async () => {
    const gone = await crawledProject('Deleted mid-write');
    let deleted = 0;
    duringPut = async () => {
      deleted = (await h.call('DELETE', `/v1/campaigns/${gone.campaign}`)).status;
    };
    const id = (await (await h.call('POST', `/v1/crawls/${gone.crawl}/exports`, { body: { format: 'pdf' } })).json()).data.id as string;
    await h.server.jobs.idle();
    expect(deleted).toBe(204);
    expect((await h.call('GET', `/v1/exports/${id}`)).status).toBe(404);
    expect(await readdir(directory)).not.toContain(`${id}.pdf`);
  });
});
