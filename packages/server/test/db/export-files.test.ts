/**
 * Where export files land: `<directory>/<id>.<format>` (by default `./.siteaudit/exports/<id>.pdf`,
 * not `.siteaudit/exports/exports/…`), and an export stored before under `exports/<id>.<format>`
 * still downloads.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

let h: Harness;
let site: Site;
let directory: string;
let crawlId: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'siteaudit-export-files-'));
  h = await startHarness({ exports: { directory } });
  site = await startSite();
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Files' } })).json()).data;
  const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
  crawlId = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'files-crawl' } })).json()).data.id;
  await h.server.jobs.idle();
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
  });
});
