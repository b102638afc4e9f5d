/**
 * Projects (spec: Projects; docs/decisions/projects.md): creation with its defaults and default
 * campaign, the public-URL rule, the plan's project limit (exact under concurrency), reads,
 * updates (a new URL clears the learned profile and priority URLs), locked projects, deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem, manualClock } from '../../../../tests/support/http.js';

const START = '2025-03-12T10:30:00.000Z';
const time = manualClock(START);
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock: time.clock });
});
afterAll(() => h.close());

async function create(body: unknown, token?: string) {
  return h.call('POST', '/v1/projects', { body, token });
}

describe('create', () => {
  it('names the project after its host by default, with slug, domain and no crawl yet', async () => {
    const res = await create({ url: 'https://www.example.com/shop/#top' });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'www.example.com',
      slug: 'www-example-com',
      url: 'https://www.example.com/shop/',
      domain: 'www.example.com',
      locked: false,
      created_at: START,
      latest_completed_crawl: null,
    });
    const read = await h.call('GET', `/v1/projects/${data.id}`);
    expect((await read.json()).data).toEqual(data);
  });

  it('takes a given name, and a null name means the default', async () => {
    const named = (await (await create({ url: 'https://named.example/', name: 'Mon Été Café' })).json()).data;
    expect(named.name).toBe('Mon Été Café');
    expect(named.slug).toBe('mon-ete-cafe');
    const unnamed = (await (await create({ url: 'https://unnamed.example/', name: null })).json()).data;
    expect(unnamed.name).toBe('unnamed.example');
    // A host longer than a name may be is cut to the longest name: the project can be renamed to it.
    const host = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.example`;
    const long = (await (await create({ url: `https://${host}/` })).json()).data;
    expect(long.name).toBe(host.slice(0, 120));
    expect(long.domain).toBe(host);
    expect((await h.call('PATCH', `/v1/projects/${long.id}`, { body: { name: long.name } })).status).toBe(200);
  });

  it('keeps slugs unique within the team', async () => {
    const a = (await (await create({ url: 'https://twin.example/' })).json()).data;
    const b = (await (await create({ url: 'https://twin.example/other' })).json()).data;
    expect(a.slug).toBe('twin-example');
    expect(b.slug).toBe('twin-example-2');
    // Another team gets the plain slug.
    const other = await h.tokenFor({ team: 'slugs' });
    expect((await (await create({ url: 'https://twin.example/' }, other)).json()).data.slug).toBe('twin-example');
  });

  it('creates the default campaign: whole site, depth 5, 500 URLs, manual schedule', async () => {
    const project = (await (await create({ url: 'https://defaults.example/', name: 'Defaults' })).json()).data;
    const list = await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toEqual({
      id: expect.any(String),
      project_id: project.id,
      name: 'Defaults',
      start_url: 'https://defaults.example/',
      max_depth: 5,
      max_urls: 500,
      javascript_rendering: false,
      pagespeed: false,
      check_external_links: false,
      check_ai_reachability: false,
      check_accessibility: false,
      protected_site: false,
      schedule: { frequency: 'manual', day: null, time: null, paused: false, next_run_at: null },
      created_at: START,
    });
  });

  it("caps the default campaign's URL budget to the plan's", async () => {
    const small = await startHarness({ plans: { pro: { limits: { 'crawls.max_urls': 200 } } } });
    try {
      const token = await small.tokenFor({ team: 'small', plan: 'pro' });
      const project = (await (await small.call('POST', '/v1/projects', { token, body: { url: 'https://small.example/' } })).json()).data;
      const campaign = (await (await small.call('GET', `/v1/projects/${project.id}/campaigns`, { token })).json()).data[0];
      expect(campaign.max_urls).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('the public-URL rule', () => {
  let strict: Harness;
  beforeAll(async () => {
    strict = await startHarness({ network: { allowPrivateAddresses: false } });
  });
  afterAll(() => strict.close());

  it('refuses loopback and private sites with 422 project.url_refused on the url field', async () => {
    for (const url of ['http://127.0.0.1/', 'http://localhost/', 'http://localhost:8080/admin', 'http://10.0.0.1/', 'http://[::1]/', 'http://169.254.169.254/latest/', 'http://2130706433/']) {
      const body = await expectProblem(await strict.call('POST', '/v1/projects', { body: { url } }), 422, 'project.url_refused');
      expect(Object.keys(body.errors ?? {})).toEqual(['url']);
    }
    const list = await (await strict.call('GET', '/v1/projects')).json();
    expect(list.data).toEqual([]);
  });

  it('says in its detail, in the caller\'s language, which option lets a development server crawl such a site', async () => {
    const en = await expectProblem(await strict.call('POST', '/v1/projects', { body: { url: 'http://127.0.0.1:3000/' }, headers: { 'accept-language': 'en' } }), 422, 'project.url_refused');
    expect(en.detail).toContain('--allow-private-addresses');
    expect(en.detail).toContain('npm run dev');
    expect(en.errors?.url?.[0]).toEqual({ code: 'url_refused', message: 'Must be a public http(s) site' });
    const fr = await expectProblem(await strict.call('POST', '/v1/projects', { body: { url: 'http://127.0.0.1:3000/' }, headers: { 'accept-language': 'fr' } }), 422, 'project.url_refused');
    expect(fr.detail).toContain('--allow-private-addresses');
    expect(fr.detail).toMatch(/^Ce serveur refuse les adresses privées/);
    expect(fr.errors?.url?.[0]?.message).toBe('Doit être un site http(s) public');
  });

  it('names a malformed site URL invalid_url, never a validation library\'s internal code', async () => {
    const body = await expectProblem(await strict.call('POST', '/v1/projects', { body: { url: 'not a url' }, headers: { 'accept-language': 'en' } }), 422, 'validation_failed');
    expect(body.errors?.url).toEqual([{ code: 'invalid_url', message: 'Must be an absolute http or https URL' }]);
  });

  it('accepts a name that does not resolve (yet): every connection is vetted again at crawl time', async () => {
    const res = await strict.call('POST', '/v1/projects', { body: { url: 'https://not-yet-live.invalid/' } });
    expect(res.status).toBe(201);
    expect((await res.json()).data.domain).toBe('not-yet-live.invalid');
  });

  it('refuses a private address on update too, and keeps the old URL', async () => {
    const project = (await (await strict.call('POST', '/v1/projects', { body: { url: 'https://moving.invalid/' } })).json()).data;
    await expectProblem(await strict.call('PATCH', `/v1/projects/${project.id}`, { body: { url: 'http://127.0.0.1:3000/' } }), 422, 'project.url_refused');
    expect((await (await strict.call('GET', `/v1/projects/${project.id}`)).json()).data.url).toBe('https://moving.invalid/');
  });
});

describe('the plan project limit', () => {
  it('refuses one project too many with 403 plan_limit.projects naming the plan that lifts it', async () => {
    const token = await h.tokenFor({ team: 'pro-team', plan: 'pro' });
    for (let i = 0; i < 10; i++) expect((await create({ url: `https://p${i}.example/` }, token)).status).toBe(201);
    const body = await expectProblem(await create({ url: 'https://eleventh.example/' }, token), 403, 'plan_limit.projects');
    expect(body.upgrade_to).toBe('agency');

    // Deleting one frees a place.
    const list = await (await h.call('GET', '/v1/projects', { token })).json();
    expect((await h.call('DELETE', `/v1/projects/${list.data[0].id}`, { token })).status).toBe(204);
    expect((await create({ url: 'https://eleventh.example/' }, token)).status).toBe(201);
  });

  it('is exact under concurrency', async () => {
    const capped = await startHarness({ plans: { pro: { limits: { 'projects.max': 3 } } } });
    try {
      const token = await capped.tokenFor({ team: 'racers', plan: 'pro' });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => capped.call('POST', '/v1/projects', { token, body: { url: `https://race${i}.example/` } })),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
      for (const res of answers.filter((r) => r.status === 403)) await expectProblem(res, 403, 'plan_limit.projects');
      const team = await capped.knex('teams').where({ slug: 'racers' }).first('id');
      const [{ count }] = await capped.knex('projects').where({ team_id: team.id }).count({ count: '*' });
      expect(Number(count)).toBe(3);
      const [{ campaigns }] = await capped.knex('campaigns').where({ team_id: team.id }).count({ campaigns: '*' });
      expect(Number(campaigns)).toBe(3);
    } finally {
      await capped.close();
    }
  });
});

describe('read', () => {
  it('answers 404 for a project that does not exist', async () => {
    await expectProblem(await h.call('GET', '/v1/projects/6f1c2a0e-9a4b-4c1d-8e2f-0a1b2c3d4e5f'), 404, 'not_found');
  });
});

describe('update', () => {
  it('renames the project and its slug, and keeps the rest', async () => {
    const project = (await (await create({ url: 'https://rename.example/', name: 'Old name' })).json()).data;
    const res = await h.call('PATCH', `/v1/projects/${project.id}`, { body: { name: 'New name' } });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual({ ...project, name: 'New name', slug: 'new-name' });
    expect((await (await h.call('GET', `/v1/projects/${project.id}`)).json()).data).toEqual(data);
  });

  it('changes url and domain, and clears the profile and priority URLs', async () => {
    const project = (await (await create({ url: 'https://before.example/', name: 'Moving' })).json()).data;
    await h.knex('projects').where({ id: project.id }).update({ profile: '{"kind":"shop"}', priority_urls: '["https://before.example/best"]' });

    // A rename keeps them.
    await h.call('PATCH', `/v1/projects/${project.id}`, { body: { name: 'Moving on' } });
    let row = await h.knex('projects').where({ id: project.id }).first();
    expect(row.profile).toBe('{"kind":"shop"}');
    expect(row.priority_urls).toBe('["https://before.example/best"]');

    // Sending the same URL keeps them too.
    await h.call('PATCH', `/v1/projects/${project.id}`, { body: { url: 'https://before.example/' } });
    row = await h.knex('projects').where({ id: project.id }).first();
    expect(row.profile).not.toBeNull();

    const res = await h.call('PATCH', `/v1/projects/${project.id}`, { body: { url: 'https://after.example/new' } });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.url).toBe('https://after.example/new');
    expect(data.domain).toBe('after.example');
    expect(data.name).toBe('Moving on');
    row = await h.knex('projects').where({ id: project.id }).first();
    expect(row.profile).toBeNull();
    expect(row.priority_urls).toBeNull();
    expect(row.url).toBe('https://after.example/new');
  });

  it('keeps slugs unique when two projects are renamed alike at the same time', async () => {
    const a = (await (await create({ url: 'https://same-a.example/' })).json()).data;
    const b = (await (await create({ url: 'https://same-b.example/' })).json()).data;
    const answers = await Promise.all([a, b].map((p) => h.call('PATCH', `/v1/projects/${p.id}`, { body: { name: 'Same name' } })));
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const slugs = await Promise.all(answers.map(async (r) => (await r.json()).data.slug));
    expect(slugs.sort()).toEqual(['same-name', 'same-name-2']);
  });

  it('answers a rename and a new URL sent at the same time each as one after the other', async () => {
    for (let i = 0; i < 5; i++) {
      const project = (await (await create({ url: `https://racing-update-${i}.example/` })).json()).data;
      const name = `Renamed ${i}`;
      const url = `https://moved-${i}.example/`;
      const answers = await Promise.all([{ name }, { url }].map((body) => h.call('PATCH', `/v1/projects/${project.id}`, { body })));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const [renamed, moved] = await Promise.all(answers.map(async (r) => (await r.json()).data));
      expect(renamed.name).toBe(name);
      expect(moved.url).toBe(url);
      // Whichever came second saw the first: one answer shows both changes, as the project now is.
      const read = (await (await h.call('GET', `/v1/projects/${project.id}`)).json()).data;
      expect(read).toMatchObject({ name, url, domain: `moved-${i}.example` });
      expect([renamed, moved].filter((answer) => answer.name === name && answer.url === url)).toHaveLength(1);
    }
  });

  it('accepts an empty body and changes nothing', async () => {
    const project = (await (await create({ url: 'https://noop.example/' })).json()).data;
    const res = await h.call('PATCH', `/v1/projects/${project.id}`, { body: {} });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(project);
  });
});

describe('a locked project', () => {
  let project: { id: string; name: string };
  let campaignId: string;

  beforeAll(async () => {
    project = (await (await create({ url: 'https://locked.example/', name: 'Locked' })).json()).data;
    campaignId = (await (await h.call('GET', `/v1/projects/${project.id}/campaigns`)).json()).data[0].id;
    await h.server.admin.setProjectLocked(project.id, true);
  });

  it('reads as locked', async () => {
    expect((await (await h.call('GET', `/v1/projects/${project.id}`)).json()).data.locked).toBe(true);
  });

  it('refuses PATCH with 403 project.locked and stays unchanged', async () => {
    await expectProblem(await h.call('PATCH', `/v1/projects/${project.id}`, { body: { name: 'Changed' } }), 403, 'project.locked');
    expect((await (await h.call('GET', `/v1/projects/${project.id}`)).json()).data.name).toBe('Locked');
  });

  it('refuses writes to its campaigns', async () => {
    await expectProblem(
      await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'New', start_url: 'https://locked.example/', max_depth: 1, max_urls: 10 } }),
      403,
      'project.locked',
    );
    await expectProblem(await h.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { max_depth: 1 } }), 403, 'project.locked');
  });

  it('can be unlocked', async () => {
    await h.server.admin.setProjectLocked(project.id, false);
    expect((await h.call('PATCH', `/v1/projects/${project.id}`, { body: { name: 'Locked' } })).status).toBe(200);
    await h.server.admin.setProjectLocked(project.id, true);
  });

  it('can be deleted, with its campaigns', async () => {
    const res = await h.call('DELETE', `/v1/projects/${project.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectProblem(await h.call('GET', `/v1/projects/${project.id}`), 404, 'not_found');
    await expectProblem(await h.call('GET', `/v1/campaigns/${campaignId}`), 404, 'not_found');
    expect(await h.knex('campaigns').where({ project_id: project.id })).toHaveLength(0);
    expect(await h.knex('projects').where({ id: project.id })).toHaveLength(0);
  });
});

describe('delete', () => {
  it('removes the project and every campaign, and a second delete answers 404', async () => {
    const project = (await (await create({ url: 'https://gone.example/' })).json()).data;
    for (let i = 0; i < 2; i++) {
      await h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: `c${i}`, start_url: 'https://gone.example/', max_depth: 1, max_urls: 10 } });
    }
    expect(await h.knex('campaigns').where({ project_id: project.id })).toHaveLength(3);
    expect((await h.call('DELETE', `/v1/projects/${project.id}`)).status).toBe(204);
    expect(await h.knex('campaigns').where({ project_id: project.id })).toHaveLength(0);
    await expectProblem(await h.call('DELETE', `/v1/projects/${project.id}`), 404, 'not_found');
    const list = await (await h.call('GET', '/v1/projects?limit=100')).json();
    expect(list.data.map((p: { id: string }) => p.id)).not.toContain(project.id);
  });

  it('answers 404, never 500, to writes into the project that arrive while it is deleted', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const project = (await (await create({ url: 'https://racing.example/' })).json()).data;
      const writes = [
        h.call('POST', `/v1/projects/${project.id}/campaigns`, { body: { name: 'c', start_url: 'https://racing.example/', max_depth: 1, max_urls: 10 } }),
        h.call('POST', `/v1/projects/${project.id}/tracked-keywords`, { body: { keywords: ['a', 'b'] }, headers: { 'idempotency-key': `racing-${i}` } }),
      ];
      const [deleted, ...answers] = await Promise.all([h.call('DELETE', `/v1/projects/${project.id}`), ...writes]);
      expect(deleted.status).toBe(204);
      for (const answer of answers) {
        const text = await answer.text();
        seen.add(`${answer.status}`);
        // Done before the deletion, or refused as a project that is no longer there.
        expect([200, 201, 404], text).toContain(answer.status);
      }
      expect(await h.knex('campaigns').where({ project_id: project.id })).toEqual([]);
      expect(await h.knex('tracked_keywords').where({ project_id: project.id })).toEqual([]);
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});
