/**
 * Idempotency-Key (spec: Endpoints rule 2; docs/decisions/idempotency.md): a retry with the same
 * key replays the first answer and never repeats the operation; the same key for another request
 * or while the first is in flight answers 409; keys belong to a team; `required` refuses a
 * request without one; validation failures are not stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, expectProblem, manualClock } from '../support/http.js';
import type { RulesHarness, RulesTarget } from './target.js';

export function idempotencyRules(target: RulesTarget): void {
  let h: RulesHarness;
  beforeAll(async () => {
    h = await target.open();
  });
  afterAll(() => h.close());

  async function projectsNamed(name: string, token?: string): Promise<number> {
    const list = await (await h.call('GET', '/v1/projects?limit=100', { token })).json();
    return list.data.filter((p: { name: string }) => p.name === name).length;
  }

  function create(key: string, body: unknown, token?: string) {
    return h.call('POST', '/v1/projects', { token, body, headers: { 'idempotency-key': key } });
  }

  describe('a retry with the same key', () => {
    it('replays the first answer and creates one project only', async () => {
      const body = { url: 'https://once.example/', name: 'Once' };
      const first = await create('key-once', body);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const firstBody = await first.json();

      const again = await create('key-once', body);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(firstBody);

      expect(await projectsNamed('Once')).toBe(1);
    });

    it('treats the same fields in another order as the same request', async () => {
      const first = await h.call('POST', '/v1/projects', {
        raw: '{"url":"https://ordered.example/","name":"Ordered"}',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'key-order' },
      });
      expect(first.status).toBe(201);
      const again = await h.call('POST', '/v1/projects', {
        raw: '{ "name": "Ordered",\n  "url": "https://ordered.example/" }',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'key-order' },
      });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await projectsNamed('Ordered')).toBe(1);
    });

    it('refuses the same key with another body: 409 idempotency.key_reused', async () => {
      expect((await create('key-reused', { url: 'https://reused.example/', name: 'Reused' })).status).toBe(201);
      await expectProblem(await create('key-reused', { url: 'https://reused.example/', name: 'Other' }), 409, 'idempotency.key_reused');
      expect(await projectsNamed('Other')).toBe(0);
    });

    it('refuses the same key on another operation', async () => {
      const project = (await (await create('key-op', { url: 'https://op.example/', name: 'Op' })).json()).data;
      const res = await h.call('POST', `/v1/projects/${project.id}/campaigns`, {
        body: { url: 'https://op.example/', name: 'Op' },
        headers: { 'idempotency-key': 'key-op' },
      });
      // The body is invalid for a campaign, so validation answers first and nothing is claimed.
      expect(res.status).toBe(422);
      await expectProblem(
        await h.call('POST', `/v1/projects/${project.id}/campaigns`, {
          body: { name: 'Op', start_url: 'https://op.example/', max_depth: 1, max_urls: 10 },
          headers: { 'idempotency-key': 'key-op' },
        }),
        409,
        'idempotency.key_reused',
      );
    });

    it('accepts the quoted (structured-field) form of the same key', async () => {
      const body = { url: 'https://quoted.example/', name: 'Quoted' };
      const quoted = await create('"key-quoted"', body);
      expect(quoted.status).toBe(201);
      const bare = await create('key-quoted', body);
      expect(bare.status).toBe(201);
      expect(bare.headers.get('idempotent-replayed')).toBe('true');
      expect((await bare.json()).data.id).toBe((await quoted.json()).data.id);
      expect(await projectsNamed('Quoted')).toBe(1);
    });

    it('replays error answers of the handler too', async () => {
      const capped = await target.open({ plans: { pro: { limits: { 'projects.max': 0 } } } });
      try {
        const token = await capped.tokenFor({ team: 'capped', plan: 'pro' });
        const call = () => capped.call('POST', '/v1/projects', { token, body: { url: 'https://capped.example/' }, headers: { 'idempotency-key': 'k' } });
        await expectProblem(await call(), 403, 'plan_limit.projects');
        const again = await call();
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        await expectProblem(again, 403, 'plan_limit.projects');
      } finally {
        await capped.close();
      }
    });
  });

  describe('concurrent requests with the same key', () => {
    it('create exactly one project; the others answer key_in_use or replay', async () => {
      const body = { url: 'https://race.example/', name: 'Race' };
      const answers = await Promise.all(Array.from({ length: 5 }, () => create('key-race', body)));
      const created = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
      expect(created).toHaveLength(1);
      const id = (await created[0].json()).data.id;
      for (const res of answers) {
        if (res === created[0]) continue;
        if (res.status === 409) {
          await expectProblem(res, 409, 'idempotency.key_in_use');
        } else {
          expect(res.status).toBe(201);
          expect(res.headers.get('idempotent-replayed')).toBe('true');
          expect((await res.json()).data.id).toBe(id);
        }
      }
      expect(await projectsNamed('Race')).toBe(1);
      const campaigns = await (await h.call('GET', `/v1/projects/${id}/campaigns`)).json();
      expect(campaigns.data).toHaveLength(1);
    });
  });

  describe('keys belong to a team', () => {
    it('lets another team use the same key for its own project', async () => {
      const other = await h.tokenFor({ team: 'initech' });
      const body = { url: 'https://shared-key.example/', name: 'Shared key' };
      const ours = await create('key-shared', body);
      const theirs = await create('key-shared', body, other);
      expect(ours.status).toBe(201);
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect((await theirs.json()).data.id).not.toBe((await ours.json()).data.id);
      expect(await projectsNamed('Shared key')).toBe(1);
      expect(await projectsNamed('Shared key', other)).toBe(1);
    });

    it('is shared by the tokens of one team', async () => {
      const colleague = await h.tokenFor({ team: 'acme' });
      const body = { url: 'https://colleague.example/', name: 'Colleague' };
      expect((await create('key-colleague', body)).status).toBe(201);
      const replay = await create('key-colleague', body, colleague);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await projectsNamed('Colleague')).toBe(1);
    });
  });

  describe('the key itself', () => {
    it('is required by launchCrawl: 400 idempotency.key_required without it', async () => {
      const project = (await (await h.call('POST', '/v1/projects', { body: { url: await target.siteUrl(), name: 'Crawlable' } })).json()).data;
      const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
      await expectProblem(await h.call('POST', `/v1/campaigns/${campaign.id}/crawls`), 400, 'idempotency.key_required');
      expect((await (await h.call('GET', `/v1/projects/${project.id}/crawls`)).json()).data).toHaveLength(0);
    });

    it('may be 255 characters, not more', async () => {
      expect((await create('k'.repeat(255), { url: 'https://long-key.example/', name: 'Long key' })).status).toBe(201);
      await expectProblem(await create('k'.repeat(256), { url: 'https://too-long.example/', name: 'Too long' }), 400, 'idempotency.key_invalid');
      expect(await projectsNamed('Too long')).toBe(0);
    });

    it('refuses an empty key', async () => {
      await expectProblem(await create('""', { url: 'https://empty-key.example/', name: 'Empty key' }), 400, 'idempotency.key_invalid');
      expect(await projectsNamed('Empty key')).toBe(0);
    });
  });

  describe('validation failures', () => {
    it('are not stored: fixing the body with the same key then succeeds', async () => {
      await expectProblem(await create('key-fix', { url: 'not a url', name: 'Fixed' }), 422, 'validation_failed');
      const fixed = await create('key-fix', { url: 'https://fixed.example/', name: 'Fixed' });
      expect(fixed.status).toBe(201);
      expect(fixed.headers.get('idempotent-replayed')).toBeNull();
      expect(await projectsNamed('Fixed')).toBe(1);
    });

    it('nor are authentication failures', async () => {
      const body = { url: 'https://auth-first.example/', name: 'Auth first' };
      expect((await create('key-auth', body, `sa_${'x'.repeat(43)}`)).status).toBe(401);
      const res = await create('key-auth', body);
      expect(res.status).toBe(201);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  describe('retention', () => {
    it('keeps a key 24 hours, then forgets it', async () => {
      const time = manualClock('2025-03-12T10:00:00.000Z');
      const timed = await target.open({ clock: time.clock });
      try {
        const post = (key: string, name: string) =>
          timed.call('POST', '/v1/projects', { body: { url: `https://${name}.example/`, name }, headers: { 'idempotency-key': key } });
        expect((await post('day-key', 'first')).status).toBe(201);

        time.advance(DAY_MS - 1000);
        const replay = await post('day-key', 'first');
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        await expectProblem(await post('day-key', 'second'), 409, 'idempotency.key_reused');

        time.advance(2000);
        const fresh = await post('day-key', 'second');
        expect(fresh.status).toBe(201);
        expect(fresh.headers.get('idempotent-replayed')).toBeNull();
      } finally {
        await timed.close();
      }
    });
  });

  describe('a crawl launch', () => {
    async function campaignOf(url?: string): Promise<{ project: string; campaign: string }> {
      const project = (await (await h.call('POST', '/v1/projects', { body: { url: url ?? (await target.siteUrl()) } })).json()).data;
      const campaign = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0];
      return { project: project.id, campaign: campaign.id };
    }
    const launch = (campaign: string, key: string, body?: unknown) => h.call('POST', `/v1/campaigns/${campaign}/crawls`, { headers: { 'idempotency-key': key }, body });

    it('retried with its key is the same crawl, counted once against the monthly quota', async () => {
      const { project, campaign } = await campaignOf();
      const crawlsUsed = async () => (await (await h.call('GET', '/v1/usage')).json()).data.quotas.find((q: { entitlement: string }) => q.entitlement === 'crawls.monthly').used as number;
      const before = await crawlsUsed();
      const first = await launch(campaign, 'launch-once');
      expect(first.status).toBe(202);
      const retry = await launch(campaign, 'launch-once');
      expect(retry.status).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.headers.get('location')).toBe(first.headers.get('location'));
      expect((await retry.json()).data.id).toBe((await first.json()).data.id);
      expect((await (await h.call('GET', `/v1/projects/${project}/crawls`)).json()).data).toHaveLength(1);
      expect(await crawlsUsed()).toBe(before + 1);
    });

    it('replays a business refusal, and never stores a validation failure', async () => {
      // The first crawl stays running for the whole test: the second launch is refused.
      const { campaign } = await campaignOf(await target.busySiteUrl());
      expect((await launch(campaign, 'launch-first')).status).toBe(202);
      await expectProblem(await launch(campaign, 'launch-busy'), 409, 'crawl.already_running');
      const replayed = await launch(campaign, 'launch-busy');
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      await expectProblem(replayed, 409, 'crawl.already_running');

      await expectProblem(await launch(campaign, 'launch-invalid', { force: true }), 422, 'validation_failed');
      const again = await launch(campaign, 'launch-invalid');
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      await expectProblem(again, 409, 'crawl.already_running');
    });
  });
}
