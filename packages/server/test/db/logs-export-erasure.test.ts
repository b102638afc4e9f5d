/**
 * Deleting a log import removes the exports that may show its paths (docs/decisions/logs.md,
 * "Retention"): the project's exports finished since the import completed, rows and files, as a
 * project's deletion does. An export made before the import stays.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { accessLine, USER_AGENTS } from '../../../../tests/support/access-log.js';
import { expectProblem, manualClock } from '../../../../tests/support/http.js';
import { startSite, type Site } from '../../../../tests/support/site.js';

const clock = manualClock('2026-03-10T10:00:00.000Z');
const SECRET_PATH = '/users/jane@example.com/profile';
const LOG = [accessLine('66.249.66.1', 9, '/', 200, USER_AGENTS.googlebot), accessLine('66.249.66.1', 9, SECRET_PATH, 200, USER_AGENTS.googlebot)].join('\n');

let h: Harness;
let site: Site;
let projectId: string;
let crawlId: string;

beforeAll(async () => {
  h = await startHarness({ clock: clock.clock, logs: { resolver: null } });
  site = await startSite();
  const project = (await (await h.call('POST', '/v1/projects', { body: { url: `${site.url}/`, name: 'Erased' } })).json()).data;
  projectId = project.id;
  const campaign = (await (await h.call('GET', `/v1/projects/${projectId}/campaigns`)).json()).data[0];
  crawlId = (await (await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`, { headers: { 'idempotency-key': 'erasure-crawl' } })).json()).data.id;
  await h.server.jobs.idle();
});
afterAll(async () => {
  await h?.close();
  await site?.close();
});

async function exportOf(format: 'pdf' | 'xlsx'): Promise<string> {
  const res = await h.call('POST', `/v1/crawls/${crawlId}/exports`, { body: { format }, headers: { 'accept-language': 'en' } });
  expect(res.status).toBe(202);
  const id = (await res.json()).data.id;
  await h.server.jobs.idle();
  expect((await h.call('GET', `/v1/exports/${id}/download`)).status).toBe(200);
  return id;
}

const fileOf = (id: string, format: string) => join(process.env.SITEAUDIT_EXPORT_DIR!, `${id}.${format}`);

describe('deleting a log import', () => {
  it('removes the exports made since it completed (rows and files), and keeps one made before it', async () => {
    const before = await exportOf('pdf');
    clock.advance(60_000);
    const upload = await fetch(`${h.url}/v1/projects/${projectId}/log-imports`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'text/plain' }, body: LOG });
    expect(upload.status).toBe(202);
    const importId = (await upload.json()).data.id;
    await h.server.jobs.idle();
    expect((await (await h.call('GET', `/v1/projects/${projectId}/log-imports/${importId}`)).json()).data.status).toBe('completed');
    clock.advance(60_000);
    const pdf = await exportOf('pdf');
    const xlsx = await exportOf('xlsx');
    for (const [id, format] of [[before, 'pdf'], [pdf, 'pdf'], [xlsx, 'xlsx']]) expect(existsSync(fileOf(id, format))).toBe(true);

    expect((await h.call('DELETE', `/v1/projects/${projectId}/log-imports/${importId}`)).status).toBe(204);

    for (const [id, format] of [[pdf, 'pdf'], [xlsx, 'xlsx']]) {
      await expectProblem(await h.call('GET', `/v1/exports/${id}`), 404, 'not_found');
      await expectProblem(await h.call('GET', `/v1/exports/${id}/download`), 404, 'not_found');
      expect(existsSync(fileOf(id, format))).toBe(false);
    }
    expect((await h.call('GET', `/v1/exports/${before}/download`)).status).toBe(200);
    expect(existsSync(fileOf(before, 'pdf'))).toBe(true);
  });
});
