/**
 * Idempotency keys in the store (docs/decisions/idempotency.md): past their 24 hours they are
 * swept away, not only ignored. The rules a client sees are in tests/rules/idempotency.ts, run on
 * the server and the mock.
 */
import { describe, expect, it } from 'vitest';
import { startHarness } from '../../../../tests/support/harness.js';
import { DAY_MS, manualClock } from '../../../../tests/support/http.js';

describe('the idempotency store', () => {
  it('sweeps expired keys away', async () => {
    const time = manualClock('2025-03-12T10:00:00.000Z');
    const h = await startHarness({ clock: time.clock });
    try {
      const post = (key: string, name: string) =>
        h.call('POST', '/v1/projects', { body: { url: `https://${name}.example/`, name }, headers: { 'idempotency-key': key } });
      expect((await post('early-key', 'early')).status).toBe(201);
      expect((await post('other-key', 'other')).status).toBe(201);
      expect(((await h.knex('idempotency_keys').pluck('key')) as string[]).sort()).toEqual(['early-key', 'other-key']);

      // Keys never sent again are gone from the store once a later request runs the sweep.
      time.advance(2 * DAY_MS);
      expect((await post('late-key', 'late')).status).toBe(201);
      expect(await h.knex('idempotency_keys').pluck('key')).toEqual(['late-key']);
    } finally {
      await h.close();
    }
  });
});
