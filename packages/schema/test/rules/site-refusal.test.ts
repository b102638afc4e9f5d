import { describe, expect, it } from 'vitest';
import { privateSiteRefusal } from '../../src/rules/site-refusal.js';

describe('private site refusal', () => {
  it('refuses the field and names the option that allows private addresses, in each language', () => {
    const en = privateSiteRefusal('start_url', 'en');
    const fr = privateSiteRefusal('url', 'fr');
    expect(en.errors).toEqual({ start_url: [{ code: 'url_refused', message: 'Must be a public http(s) site' }] });
    expect(fr.errors).toEqual({ url: [{ code: 'url_refused', message: 'Doit être un site http(s) public' }] });
    for (const { detail } of [en, fr]) expect(detail).toContain('--allow-private-addresses');
    expect(fr.detail).not.toBe(en.detail);
  });
});
