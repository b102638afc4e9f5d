/** Exports a crawl over HTTP and downloads the file, as a client does. */
import { expect } from 'vitest';
import type { Harness } from '../../../../../tests/support/harness.js';

export async function exportedFile(h: Harness, crawlId: string, format: 'pdf' | 'xlsx', language: 'fr' | 'en'): Promise<Buffer> {
  const res = await h.call('POST', `/v1/crawls/${crawlId}/exports`, { body: { format }, headers: { 'accept-language': language } });
  expect(res.status).toBe(202);
  const { id } = (await res.json()).data;
  await h.server.jobs.idle();
  const file = await h.call('GET', `/v1/exports/${id}/download`);
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}
