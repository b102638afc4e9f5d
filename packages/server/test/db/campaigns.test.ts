/**
 * Campaigns (spec: Campaigns; docs/decisions/campaign-fields.md): list, create with every field,
 * write-only fields accepted and never echoed, HTTP credentials encrypted at rest and never
 * returned, partial updates, the schedule's next run from the clock, plan bounds, deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';
import { expectProblem, manualClock } from '../../../../tests/support/http.js';

// A Wednesday.
const START = '2025-03-12T10:30:00.000Z';
const time = manualClock(START);
let h: Harness;
let projectId: string;

beforeAll(async () => {
  // Starter gets write access here so that its campaign bounds can be reached through the API.
  h = await startHarness({ clock: time.clock, plans: { starter: { api: 'write' } } });
  time.set('2025-03-12T10:29:00.000Z');
  projectId = (await (await h.call('POST', '/v1/projects', { body: { url: 'https://camp.example/', name: 'Camp' } })).json()).data.id;
  time.set(START);
});
afterAll(() => h.close());

const WRITE_ONLY = {
  check_accessibility_rendered: true,
  include_patterns: '^/blog/',
  exclude_patterns: '\\?print=1$',
  issue_exclusion_patterns: 'thin_content',
  timeout: 30,
  retries: 4,
  duplication_threshold: 85.5,
  regression_threshold: 'warning',
  http_user: 'alice-user',
  http_password: 's3cret-Passw0rd',
  notify: true,
} as const;

const FULL = {
  name: 'Full campaign',
  start_url: 'https://camp.example/blog/',
  max_depth: 7,
  max_urls: 2500,
  javascript_rendering: true,
  pagespeed: true,
  check_external_links: true,
  check_ai_reachability: true,
  check_accessibility: true,
  protected_site: true,
  schedule: { frequency: 'weekly', day: 'friday', time: '06:45' },
  ...WRITE_ONLY,
};

async function createCampaign(body: Record<string, unknown>, project = projectId, token?: string) {
  return h.call('POST', `/v1/projects/${project}/campaigns`, { body, token });
}

async function createOk(body: Record<string, unknown>): Promise<any> {
  const res = await createCampaign(body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}

const minimal = (name: string, extra: Record<string, unknown> = {}) => ({ name, start_url: 'https://camp.example/', max_depth: 2, max_urls: 50, ...extra });

describe('create with every field', () => {
  let created: any;
  let text: string;

  beforeAll(async () => {
    const res = await createCampaign(FULL);
    expect(res.status).toBe(201);
    text = await res.text();
    created = JSON.parse(text).data;
  });

  it('returns the campaign with its readable fields', () => {
    expect(created).toEqual({
      id: expect.any(String),
      project_id: projectId,
      name: 'Full campaign',
      start_url: 'https://camp.example/blog/',
      max_depth: 7,
      max_urls: 2500,
      javascript_rendering: true,
      pagespeed: true,
      check_external_links: true,
      check_ai_reachability: true,
      check_accessibility: true,
      protected_site: true,
      // Friday 14 March 2025, 06:45 UTC: the first Friday at 06:45 after Wednesday 10:30.
      schedule: { frequency: 'weekly', day: 'friday', time: '06:45', paused: false, next_run_at: '2025-03-14T06:45:00.000Z' },
      created_at: START,
    });
  });

  it('never echoes a write-only field, nor the credentials', async () => {
    for (const field of Object.keys(WRITE_ONLY)) expect(created).not.toHaveProperty(field);
    const read = await (await h.call('GET', `/v1/campaigns/${created.id}`)).text();
    const list = await (await h.call('GET', `/v1/projects/${projectId}/campaigns`)).text();
    for (const body of [text, read, list]) {
      expect(body).not.toContain('alice-user');
      expect(body).not.toContain('s3cret-Passw0rd');
      expect(body).not.toContain('http_user');
      expect(body).not.toContain('http_password');
      expect(body).not.toContain('thin_content');
    }
  });

  it('stores the write-only fields', async () => {
    const row = await h.knex('campaigns').where({ id: created.id }).first();
    expect(row.include_patterns).toBe('^/blog/');
    expect(row.exclude_patterns).toBe('\\?print=1$');
    expect(row.issue_exclusion_patterns).toBe('thin_content');
    expect(row.timeout).toBe(30);
    expect(row.retries).toBe(4);
    expect(Number(row.duplication_threshold)).toBe(85.5);
    expect(row.regression_threshold).toBe('warning');
    expect(Boolean(row.notify)).toBe(true);
    expect(Boolean(row.check_accessibility_rendered)).toBe(true);
  });

  it('keeps the HTTP credentials encrypted at rest: no column holds the plaintext', async () => {
    const row = await h.knex('campaigns').where({ id: created.id }).first();
    for (const [column, value] of Object.entries(row)) {
      if (value === null || typeof value !== 'string') continue;
      expect(value, column).not.toContain('alice-user');
      expect(value, column).not.toContain('s3cret-Passw0rd');
    }
    const stored = Object.values(row).filter((v) => typeof v === 'string' && v.startsWith('v1.'));
    expect(stored.length).toBeGreaterThanOrEqual(2);
  });

  it('lists it newest first, after the default campaign', async () => {
    const list = await (await h.call('GET', `/v1/projects/${projectId}/campaigns`)).json();
    expect(list.data.map((c: { name: string }) => c.name)).toEqual(['Full campaign', 'Camp']);
  });
});

describe('partial update', () => {
  it('keeps absent fields, and an absent http_password unchanged', async () => {
    const before = await createOk({ ...FULL, name: 'Partial' });
    const rowBefore = await h.knex('campaigns').where({ id: before.id }).first();

    const res = await h.call('PATCH', `/v1/campaigns/${before.id}`, { body: { name: 'Partial renamed', max_depth: 3 } });
    expect(res.status).toBe(200);
    const after = (await res.json()).data;
    expect(after).toEqual({ ...before, name: 'Partial renamed', max_depth: 3 });

    const rowAfter = await h.knex('campaigns').where({ id: before.id }).first();
    expect(rowAfter.http_password_enc).toBe(rowBefore.http_password_enc);
    expect(rowAfter.http_user_enc).toBe(rowBefore.http_user_enc);
    expect(rowAfter.timeout).toBe(30);
    expect(rowAfter.include_patterns).toBe('^/blog/');
    expect((await (await h.call('GET', `/v1/campaigns/${before.id}`)).json()).data).toEqual(after);
  });

  it('clears the password with null, and replaces it with a new value', async () => {
    const campaign = await createOk({ ...FULL, name: 'Credentials' });
    const original = await h.knex('campaigns').where({ id: campaign.id }).first();

    await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { http_password: 'another-Secret' } });
    const replaced = await h.knex('campaigns').where({ id: campaign.id }).first();
    expect(replaced.http_password_enc).not.toBe(original.http_password_enc);
    expect(replaced.http_password_enc).not.toContain('another-Secret');
    expect(replaced.http_user_enc).toBe(original.http_user_enc);

    const res = await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { http_password: null } });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('http_password');
    const cleared = await h.knex('campaigns').where({ id: campaign.id }).first();
    expect(cleared.http_password_enc).toBeNull();
    expect(cleared.http_user_enc).toBe(original.http_user_enc);
  });

  it('updates write-only fields and booleans, and nulls clear the nullable ones', async () => {
    const campaign = await createOk({ ...FULL, name: 'Toggles' });
    const res = await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { pagespeed: false, timeout: null, include_patterns: null, regression_threshold: 'error' } });
    expect(res.status).toBe(200);
    expect((await res.json()).data.pagespeed).toBe(false);
    const row = await h.knex('campaigns').where({ id: campaign.id }).first();
    expect(row.timeout).toBeNull();
    expect(row.include_patterns).toBeNull();
    expect(row.regression_threshold).toBe('error');
    expect(row.retries).toBe(4);
  });

  it('keeps each change of partial updates sent at the same time', async () => {
    const campaign = await createOk({ ...FULL, name: 'Concurrent' });
    const changes = [{ name: 'Concurrent renamed' }, { max_depth: 7 }, { pagespeed: false }, { max_urls: 321 }, { timeout: 45 }, { http_password: 'other-Secret' }];
    const answers = await Promise.all(changes.map((body) => h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body })));
    expect(answers.map((a) => a.status)).toEqual(changes.map(() => 200));
    const read = (await (await h.call('GET', `/v1/campaigns/${campaign.id}`)).json()).data;
    expect(read).toMatchObject({ name: 'Concurrent renamed', max_depth: 7, pagespeed: false, max_urls: 321 });
    const row = await h.knex('campaigns').where({ id: campaign.id }).first();
    expect(row.timeout).toBe(45);
    expect(row.retries).toBe(4);
  });

  it('refuses invalid values and unknown fields, changing nothing', async () => {
    const campaign = await createOk(minimal('Strict'));
    const bad = await expectProblem(await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { max_depth: -1, colour: 'red' } }), 422, 'validation_failed');
    expect(Object.keys(bad.errors).sort()).toEqual(['colour', 'max_depth']);
    expect((await (await h.call('GET', `/v1/campaigns/${campaign.id}`)).json()).data).toEqual(campaign);
  });
});

describe('schedule.next_run_at', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['daily, later today', { frequency: 'daily', time: '11:00' }, { day: null, time: '11:00', next_run_at: '2025-03-12T11:00:00.000Z' }],
    ['daily, tomorrow', { frequency: 'daily', time: '09:00' }, { day: null, time: '09:00', next_run_at: '2025-03-13T09:00:00.000Z' }],
    ['daily, now is not after now', { frequency: 'daily', time: '10:30' }, { next_run_at: '2025-03-13T10:30:00.000Z' }],
    ['daily, default time', { frequency: 'daily' }, { time: '03:00', next_run_at: '2025-03-13T03:00:00.000Z' }],
    ['weekly, next Monday', { frequency: 'weekly', day: 'monday', time: '08:00' }, { day: 'monday', next_run_at: '2025-03-17T08:00:00.000Z' }],
    ['weekly, today later', { frequency: 'weekly', day: 'wednesday', time: '18:00' }, { next_run_at: '2025-03-12T18:00:00.000Z' }],
    ['weekly, today passed', { frequency: 'weekly', day: 'wednesday', time: '10:00' }, { next_run_at: '2025-03-19T10:00:00.000Z' }],
    ['monthly, this month', { frequency: 'monthly', day: '28', time: '23:59' }, { day: '28', next_run_at: '2025-03-28T23:59:00.000Z' }],
    ['monthly, next month', { frequency: 'monthly', day: '12', time: '10:00' }, { next_run_at: '2025-04-12T10:00:00.000Z' }],
    ['manual', { frequency: 'manual', day: 'monday', time: '08:00' }, { frequency: 'manual', day: null, time: null, next_run_at: null }],
    ['paused', { frequency: 'weekly', day: 'monday', time: '08:00', paused: true }, { day: 'monday', time: '08:00', paused: true, next_run_at: null }],
  ];

  for (const [label, schedule, expected] of cases) {
    it(`is computed from the clock: ${label}`, async () => {
      time.set(START);
      const created = await createOk(minimal(`Schedule ${label}`, { schedule }));
      expect(created.schedule).toMatchObject({ frequency: schedule.frequency, paused: false, ...expected });
    });
  }

  it('crosses the year end', async () => {
    time.set(START);
    await h.server.admin.addMember({ team: 'acme', email: 'year@acme.test', name: 'Year', role: 'owner' });
    const { token } = await h.server.admin.createToken({ team: 'acme', member: 'year@acme.test', name: 'year', scopes: ['projects:write'], days: 365 });
    time.set('2025-12-31T23:00:00.000Z');
    const res = await createCampaign(minimal('New year', { schedule: { frequency: 'monthly', day: '1', time: '00:30' } }), projectId, token);
    expect(res.status).toBe(201);
    expect((await res.json()).data.schedule.next_run_at).toBe('2026-01-01T00:30:00.000Z');
    time.set(START);
  });

  it('is recomputed on update, from the clock of the update', async () => {
    time.set(START);
    const campaign = await createOk(minimal('Rescheduled'));
    expect(campaign.schedule.next_run_at).toBeNull();
    time.set('2025-03-15T12:00:00.000Z'); // a Saturday
    const res = await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { schedule: { frequency: 'weekly', day: 'saturday', time: '13:00' } } });
    expect((await res.json()).data.schedule.next_run_at).toBe('2025-03-15T13:00:00.000Z');
    const paused = await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { schedule: { frequency: 'weekly', day: 'saturday', time: '13:00', paused: true } } });
    expect((await paused.json()).data.schedule).toEqual({ frequency: 'weekly', day: 'saturday', time: '13:00', paused: true, next_run_at: null });
    time.set(START);
  });

  it('refuses a bad day or time on the field path', async () => {
    for (const [schedule, field] of [
      [{ frequency: 'weekly', day: 'someday' }, 'schedule.day'],
      [{ frequency: 'monthly', day: '31' }, 'schedule.day'],
      [{ frequency: 'daily', time: '7:00' }, 'schedule.time'],
      [{ frequency: 'hourly' }, 'schedule.frequency'],
    ] as const) {
      const body = await expectProblem(await createCampaign(minimal('Bad schedule', { schedule })), 422, 'validation_failed');
      expect(Object.keys(body.errors)).toEqual([field]);
    }
  });
});

describe('plan bounds', () => {
  let starter: string;
  let starterProject: string;

  beforeAll(async () => {
    starter = await h.tokenFor({ team: 'starter-writer', plan: 'starter' });
    starterProject = (await (await h.call('POST', '/v1/projects', { token: starter, body: { url: 'https://starter.example/' } })).json()).data.id;
  });

  it('refuses max_urls over the plan budget with 403 plan_limit.crawls.max_urls', async () => {
    const pro = await h.tokenFor({ team: 'pro-bounds', plan: 'pro' });
    const project = (await (await h.call('POST', '/v1/projects', { token: pro, body: { url: 'https://pro.example/' } })).json()).data.id;
    const body = await expectProblem(await createCampaign(minimal('Too big', { max_urls: 10_001 }), project, pro), 403, 'plan_limit.crawls.max_urls');
    expect(body.upgrade_to).toBe('agency');
    expect((await createCampaign(minimal('Just right', { max_urls: 10_000 }), project, pro)).status).toBe(201);
  });

  it('refuses JavaScript rendering on starter, naming pro', async () => {
    const body = await expectProblem(await createCampaign(minimal('JS', { javascript_rendering: true }), starterProject, starter), 403, 'plan_limit.crawls.javascript_rendering');
    expect(body.upgrade_to).toBe('pro');
  });

  it('refuses a daily schedule on starter, naming pro, and allows weekly', async () => {
    const body = await expectProblem(
      await createCampaign(minimal('Daily', { schedule: { frequency: 'daily', time: '05:00' } }), starterProject, starter),
      403,
      'plan_limit.crawls.schedule_frequency',
    );
    expect(body.upgrade_to).toBe('pro');
    expect((await createCampaign(minimal('Weekly', { schedule: { frequency: 'weekly' } }), starterProject, starter)).status).toBe(201);
  });

  it('applies on update too, leaving the campaign unchanged', async () => {
    const list = await (await h.call('GET', `/v1/projects/${starterProject}/campaigns`, { token: starter })).json();
    const campaign = list.data.find((c: { name: string }) => c.name === 'Weekly');
    await expectProblem(
      await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { token: starter, body: { schedule: { frequency: 'daily' } } }),
      403,
      'plan_limit.crawls.schedule_frequency',
    );
    await expectProblem(await h.call('PATCH', `/v1/campaigns/${campaign.id}`, { token: starter, body: { max_urls: 1001 } }), 403, 'plan_limit.crawls.max_urls');
    expect((await (await h.call('GET', `/v1/campaigns/${campaign.id}`, { token: starter })).json()).data).toEqual(campaign);
  });

  it('creates nothing when refused', async () => {
    const list = await (await h.call('GET', `/v1/projects/${starterProject}/campaigns`, { token: starter })).json();
    expect(list.data.map((c: { name: string }) => c.name).sort()).toEqual(['Weekly', 'starter.example']);
  });
});

describe('delete', () => {
  it('removes the campaign, answers 204 with no body, then 404', async () => {
    const campaign = await createOk(minimal('Doomed'));
    const res = await h.call('DELETE', `/v1/campaigns/${campaign.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectProblem(await h.call('GET', `/v1/campaigns/${campaign.id}`), 404, 'not_found');
    await expectProblem(await h.call('DELETE', `/v1/campaigns/${campaign.id}`), 404, 'not_found');
    const list = await (await h.call('GET', `/v1/projects/${projectId}/campaigns?limit=100`)).json();
    expect(list.data.map((c: { id: string }) => c.id)).not.toContain(campaign.id);
    expect(await h.knex('campaigns').where({ id: campaign.id })).toHaveLength(0);
  });

  it('leaves the project and its other campaigns', async () => {
    const keep = await createOk(minimal('Keeper'));
    const drop = await createOk(minimal('Dropped'));
    expect((await h.call('DELETE', `/v1/campaigns/${drop.id}`)).status).toBe(204);
    expect((await h.call('GET', `/v1/campaigns/${keep.id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/projects/${projectId}`)).status).toBe(200);
  });
});
