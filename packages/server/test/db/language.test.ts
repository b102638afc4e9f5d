/**
 * Accept-Language (spec: Language): `fr` by default, `en` on request; it changes error titles
 * and validation messages, never codes; the answer says which language it used.
 */
import { ERRORS } from '@siteaudit/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../tests/support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function unauthenticated(acceptLanguage?: string) {
  const res = await h.call('GET', '/v1/projects', { token: null, headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
  expect(res.status).toBe(401);
  return { res, body: await res.json() };
}

describe('error titles', () => {
  it('are French by default', async () => {
    const { res, body } = await unauthenticated();
    expect(body.title).toBe('Authentification requise');
    expect(body.title).toBe(ERRORS.unauthenticated.title.fr);
    expect(res.headers.get('content-language')).toBe('fr');
  });

  it('are English with Accept-Language: en, and regional or weighted forms', async () => {
    for (const header of ['en', 'en-US,en;q=0.9', 'en-GB', 'de-DE, en;q=0.5', 'fr;q=0.3, en;q=0.8', 'fr;q=0, *', 'de, *;q=0.5, fr;q=0.1']) {
      const { res, body } = await unauthenticated(header);
      expect(body.title, header).toBe('Authentication required');
      expect(res.headers.get('content-language'), header).toBe('en');
    }
  });

  it('fall back to French for other languages and keep French when preferred', async () => {
    for (const header of ['de', 'es-ES,it;q=0.9', 'fr-FR,en;q=0.5', 'fr-CA', '*', 'en;q=0', '*;q=0.5, en;q=0.1']) {
      const { res, body } = await unauthenticated(header);
      expect(body.title, header).toBe('Authentification requise');
      expect(res.headers.get('content-language'), header).toBe('fr');
    }
  });

  it('never change the code, status or type', async () => {
    const fr = (await unauthenticated('fr')).body;
    const en = (await unauthenticated('en')).body;
    expect(fr.title).not.toBe(en.title);
    expect({ code: fr.code, status: fr.status, type: fr.type }).toEqual({ code: en.code, status: en.status, type: en.type });
  });

  it('follow the language on every kind of refusal', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', '/v1/projects/00000000-0000-4000-8000-000000000000', undefined, 'not_found'],
      ['POST', '/v1/projects', { url: 'nope' }, 'validation_failed'],
      ['PUT', '/v1/projects', { url: 'nope' }, 'method_not_allowed'],
      ['GET', '/v1/nowhere', undefined, 'not_found'],
    ];
    for (const [method, path, body, code] of cases) {
      const fr = await h.call(method, path, { body });
      const en = await h.call(method, path, { body, headers: { 'accept-language': 'en' } });
      const [frBody, enBody] = [await fr.json(), await en.json()];
      expect(frBody.code).toBe(code);
      expect(enBody.code).toBe(code);
      expect(frBody.title).toBe(ERRORS[code as keyof typeof ERRORS].title.fr);
      expect(enBody.title).toBe(ERRORS[code as keyof typeof ERRORS].title.en);
      expect(fr.headers.get('content-language')).toBe('fr');
      expect(en.headers.get('content-language')).toBe('en');
    }
  });
});

describe('validation messages', () => {
  it('follow the language; their codes do not', async () => {
    const body = { url: 'https://lang.example/', extra: true };
    const fr = await (await h.call('POST', '/v1/projects', { body })).json();
    const en = await (await h.call('POST', '/v1/projects', { body, headers: { 'accept-language': 'en' } })).json();
    expect(fr.errors.extra[0].code).toBe('unknown_field');
    expect(en.errors.extra[0].code).toBe('unknown_field');
    expect(fr.errors.extra[0].message).toBe('Champ inconnu');
    expect(en.errors.extra[0].message).toBe('Unknown field');
  });
});

describe('successful answers', () => {
  it('carry Content-Language and Vary on Accept-Language', async () => {
    const fr = await h.call('GET', '/v1/me');
    const en = await h.call('GET', '/v1/me', { headers: { 'accept-language': 'en' } });
    expect(fr.headers.get('content-language')).toBe('fr');
    expect(en.headers.get('content-language')).toBe('en');
    for (const res of [fr, en]) expect(res.headers.get('vary')).toMatch(/Accept-Language/i);
  });
});
