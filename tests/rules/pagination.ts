/**
 * Cursor pagination (spec: Endpoints rule 4; docs/decisions/pagination.md): newest first, every
 * item once, stable under inserts, cursors bound to the list, filters and team that issued
 * them, `has_more` false on the last page, limit 25 by default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, manualClock } from '../support/http.js';
import type { RulesHarness, RulesTarget } from './target.js';

export function paginationRules(target: RulesTarget): void {
  const time = manualClock('2025-03-12T10:00:00.000Z');
  let h: RulesHarness;

  beforeAll(async () => {
    h = await target.open({ clock: time.clock });
  });
  afterAll(() => h.close());

  interface Page<T = { id: string; name: string; created_at: string }> {
    data: T[];
    meta: { limit: number; has_more: boolean; next_cursor: string | null };
  }

  async function page(path: string, token?: string): Promise<Page> {
    const res = await h.call('GET', path, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  }

  /** Follows next_cursor to the end and returns every page. */
  async function walk(base: string, limit: number, token?: string): Promise<Page[]> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const sep = base.includes('?') ? '&' : '?';
      const p = await page(`${base}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
      pages.push(p);
      cursor = p.meta.next_cursor;
      expect(pages.length).toBeLessThan(100);
    } while (cursor);
    return pages;
  }

  async function createProjects(token: string, prefix: string, count: number, opts: { tick?: number } = {}): Promise<string[]> {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      if (opts.tick !== 0) time.advance(opts.tick ?? 1000);
      const name = `${prefix}-${String(i).padStart(2, '0')}`;
      const res = await h.call('POST', '/v1/projects', { token, body: { url: `https://${name}.example/`, name } });
      expect(res.status).toBe(201);
      names.push(name);
    }
    return names;
  }

  describe('project list', () => {
    let token: string;
    let names: string[];

    beforeAll(async () => {
      token = await h.tokenFor({ team: 'paged' });
      names = await createProjects(token, 'p', 30);
    });

    it('is newest first, 25 by default, with has_more and a cursor', async () => {
      const first = await page('/v1/projects', token);
      expect(first.meta.limit).toBe(25);
      expect(first.data).toHaveLength(25);
      expect(first.meta.has_more).toBe(true);
      expect(typeof first.meta.next_cursor).toBe('string');
      expect(first.data.map((p) => p.name)).toEqual([...names].reverse().slice(0, 25));
    });

    it('yields every item exactly once when following next_cursor, and has_more is false on the last page', async () => {
      const pages = await walk('/v1/projects', 7, token);
      expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 7, 2]);
      const seen = pages.flatMap((p) => p.data.map((x) => x.name));
      expect(seen).toEqual([...names].reverse());
      const last = pages.at(-1)!;
      expect(last.meta).toEqual({ limit: 7, has_more: false, next_cursor: null });
      for (const p of pages.slice(0, -1)) expect(p.meta.has_more).toBe(true);
    });

    it('ends with has_more false when the last page is exactly full', async () => {
      const pages = await walk('/v1/projects', 10, token);
      expect(pages.map((p) => p.data.length)).toEqual([10, 10, 10]);
      expect(pages.at(-1)!.meta).toEqual({ limit: 10, has_more: false, next_cursor: null });
    });

    it('lets the limit change between pages', async () => {
      const first = await page('/v1/projects?limit=5', token);
      const second = await page(`/v1/projects?limit=20&cursor=${encodeURIComponent(first.meta.next_cursor!)}`, token);
      expect([...first.data, ...second.data].map((p) => p.name)).toEqual([...names].reverse().slice(0, 25));
    });

    it('orders items created in the same millisecond stably, each once', async () => {
      const sameTime = await h.tokenFor({ team: 'burst' });
      const created = await createProjects(sameTime, 'b', 12, { tick: 0 });
      const pages = await walk('/v1/projects', 5, sameTime);
      const seen = pages.flatMap((p) => p.data.map((x) => x.name));
      expect(seen).toHaveLength(12);
      expect(new Set(seen)).toEqual(new Set(created));
      // The same walk twice gives the same order.
      const again = (await walk('/v1/projects', 3, sameTime)).flatMap((p) => p.data.map((x) => x.name));
      expect(again).toEqual(seen);
    });
  });

  describe('inserts between pages', () => {
    it('neither duplicates nor skips an item', async () => {
      const token = await h.tokenFor({ team: 'moving' });
      const before = await createProjects(token, 'm', 9);
      const first = await page('/v1/projects?limit=4', token);

      // New projects arrive while the client pages; they are newer than everything it has seen.
      await createProjects(token, 'late', 3);
      const rest: string[] = [];
      let cursor = first.meta.next_cursor;
      while (cursor) {
        const p = await page(`/v1/projects?limit=4&cursor=${encodeURIComponent(cursor)}`, token);
        rest.push(...p.data.map((x) => x.name));
        cursor = p.meta.next_cursor;
      }
      expect([...first.data.map((x) => x.name), ...rest]).toEqual([...before].reverse());

      // A fresh walk sees the newcomers first.
      const fresh = (await walk('/v1/projects', 4, token)).flatMap((p) => p.data.map((x) => x.name));
      expect(fresh.slice(0, 3)).toEqual(['late-02', 'late-01', 'late-00']);
    });

    it('is not thrown off by a deletion of an item already seen', async () => {
      const token = await h.tokenFor({ team: 'shrinking' });
      const before = await createProjects(token, 's', 6);
      const first = await page('/v1/projects?limit=3', token);
      const deleted = await h.call('DELETE', `/v1/projects/${first.data[2].id}`, { token });
      expect(deleted.status).toBe(204);
      const second = await page(`/v1/projects?limit=3&cursor=${encodeURIComponent(first.meta.next_cursor!)}`, token);
      expect(second.data.map((x) => x.name)).toEqual([...before].reverse().slice(3));
      expect(second.meta.has_more).toBe(false);
    });
  });

  describe('campaign list', () => {
    it('pages the campaigns of a project newest first', async () => {
      const project = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://camp.example/', name: 'default' } })).json()).data;
      const names: string[] = ['default'];
      for (let i = 0; i < 5; i++) {
        time.advance(1000);
        const name = `c-${i}`;
        const res = await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name, start_url: 'https://camp.example/', max_depth: 1, max_urls: 10 } });
        expect(res.status).toBe(201);
        names.push(name);
      }
      const seen = (await walk(`/v1/projects/${project.id}/campaigns`, 2)).flatMap((p) => p.data.map((x) => x.name));
      expect(seen).toEqual([...names].reverse());
    });
  });

  describe('400 pagination.invalid_cursor', () => {
    let cursor: string;
    let campaignCursor: string;
    let projectA: string;
    let projectB: string;

    beforeAll(async () => {
      projectA = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://a.example/', name: 'A' } })).json()).data.id;
      projectB = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://b.example/', name: 'B' } })).json()).data.id;
      cursor = (await page('/v1/projects?limit=1')).meta.next_cursor!;
      expect(cursor).toBeTruthy();
      for (const id of [projectA, projectB]) {
        for (let i = 0; i < 3; i++) {
          time.advance(1000);
          await h.call('POST', `/v1/projects/${id}/campaigns`, { body: { name: `x${i}`, start_url: 'https://a.example/', max_depth: 1, max_urls: 10 } });
        }
      }
      campaignCursor = (await page(`/v1/projects/${projectA}/campaigns?limit=1`)).meta.next_cursor!;
      expect(campaignCursor).toBeTruthy();
    });

    it('works on the list and filters that issued it', async () => {
      expect((await h.call('GET', `/v1/projects?limit=1&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
      expect((await h.call('GET', `/v1/projects/${projectA}/campaigns?cursor=${encodeURIComponent(campaignCursor)}`)).status).toBe(200);
    });

    it('refuses a cursor reused on another list', async () => {
      await expectProblem(await h.call('GET', `/v1/projects/${projectA}/campaigns?cursor=${encodeURIComponent(cursor)}`), 400, 'pagination.invalid_cursor');
      await expectProblem(await h.call('GET', `/v1/projects?cursor=${encodeURIComponent(campaignCursor)}`), 400, 'pagination.invalid_cursor');
    });

    it("refuses a cursor of one project's campaigns on another project's campaigns", async () => {
      await expectProblem(await h.call('GET', `/v1/projects/${projectB}/campaigns?cursor=${encodeURIComponent(campaignCursor)}`), 400, 'pagination.invalid_cursor');
    });

    it('refuses a tampered or made-up cursor', async () => {
      const [body, signature] = cursor.split('.');
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      const moved = Buffer.from(JSON.stringify({ ...payload, k: ['9999-12-31T00:00:00.000Z', 'ffffffff-ffff-4fff-bfff-ffffffffffff'] })).toString('base64url');
      const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
      // An empty or very long cursor is malformed like any other, not an invalid value of the query.
      for (const bad of [`${moved}.${signature}`, `${body}.${flipped}`, `${body}.`, body, 'abc', `${cursor}.x`, `${body}.${signature}x`, '', 'A'.repeat(4096)]) {
        await expectProblem(await h.call('GET', `/v1/projects?cursor=${encodeURIComponent(bad)}`), 400, 'pagination.invalid_cursor');
      }
    });

    it("refuses another team's cursor", async () => {
      const other = await h.tokenFor({ team: 'cursor-thief' });
      await expectProblem(await h.call('GET', `/v1/projects?cursor=${encodeURIComponent(cursor)}`, { token: other }), 400, 'pagination.invalid_cursor');
    });
  });

  describe('envelopes', () => {
    it('wrap a resource in { data } and a list in { data, meta }', async () => {
      const token = await h.tokenFor({ team: 'enveloped' });
      const created = await h.call('POST', '/v1/projects', { token, body: { url: 'https://enveloped.example/', name: 'Enveloped' } });
      const one = await (await h.call('GET', `/v1/projects/${(await created.json()).data.id}`, { token })).json();
      expect(Object.keys(one)).toEqual(['data']);
      const list = await page('/v1/projects', token);
      expect(Object.keys(list)).toEqual(['data', 'meta']);
      expect(list.meta).toEqual({ limit: 25, has_more: false, next_cursor: null });
    });
  });

  describe('an empty list', () => {
    it('has no cursor and has_more false', async () => {
      const token = await h.tokenFor({ team: 'empty' });
      const p = await page('/v1/projects', token);
      expect(p).toEqual({ data: [], meta: { limit: 25, has_more: false, next_cursor: null } });
    });
  });
}
