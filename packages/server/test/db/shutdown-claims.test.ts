/** At shutdown, the idempotency keys of requests that never completed are freed (http/idempotency.ts). */
import { expect, it } from 'vitest';
import { IdempotencyStore } from '../../src/http/idempotency.js';
import { migrate, openDatabase } from '../../src/store/database.js';
import { sharedDatabase } from '../../../../tests/support/harness.js';

it('frees the keys still claimed by this process, and only those', async () => {
  const { knex, drop } = await sharedDatabase();
  try {
    await migrate(openDatabase(knex));
    const teamId = '00000000-0000-4000-8000-000000000001';
    await knex('teams').insert({ id: teamId, slug: 'acme', name: 'Acme', plan: 'pro', created_at: new Date().toISOString() });
    const now = new Date();
    const store = new IdempotencyStore(knex);
    expect(await store.claim(teamId, 'done', 'p', now)).toEqual({ kind: 'claimed' });
    await store.complete(teamId, 'done', { status: 201, body: '{}', headers: {} });
    expect(await store.claim(teamId, 'stuck', 'p', now)).toEqual({ kind: 'claimed' });
    // Another process sees the key in use until this one releases it.
    expect(await new IdempotencyStore(knex).claim(teamId, 'stuck', 'p', now)).toEqual({ kind: 'in_flight' });

    await store.releaseInFlight();
    expect(await new IdempotencyStore(knex).claim(teamId, 'stuck', 'p', now)).toEqual({ kind: 'claimed' });
    expect((await new IdempotencyStore(knex).claim(teamId, 'done', 'p', now)).kind).toBe('replay');
  } finally {
    await drop();
  }
});
