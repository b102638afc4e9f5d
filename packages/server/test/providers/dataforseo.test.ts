import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDataForSeoKeywordData, createDataForSeoSerp, ProviderError, sameSite } from '../../src/providers/index.js';
import { dataForSeoStandIn } from '../../../../tests/support/provider-stand-ins.js';

const stand = dataForSeoStandIn({ login: 'api@example.test', password: 's3cret' });
const server = setupServer(...stand.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  stand.serps.clear();
  stand.calls.length = 0;
});
afterAll(() => server.close());

const market = { location: 'France', country: 'FR', language: 'fr', device: 'desktop' };
const serp = createDataForSeoSerp({ login: 'api@example.test', password: 's3cret' });

describe('DataForSEO SERP adapter', () => {
  it('posts one live advanced task with Basic auth, the market and depth 100', async () => {
    await serp.check({ keyword: 'chaussures running', domain: 'www.shop.test', ...market });
    expect(stand.calls).toHaveLength(1);
    const [call] = stand.calls;
    expect(call.authorization).toBe(`Basic ${Buffer.from('api@example.test:s3cret').toString('base64')}`);
    expect(call.task).toEqual({ keyword: 'chaussures running', location_name: 'France', language_code: 'fr', device: 'desktop', depth: 100 });
  });

  it('sends a numeric location as location_code', async () => {
    await serp.check({ keyword: 'x', domain: 'shop.test', ...market, location: '2250' });
    expect(stand.calls[0].task).toMatchObject({ location_code: 2250 });
    expect(stand.calls[0].task.location_name).toBeUndefined();
  });

  it('returns the organic rank_group of the site, its URL and the SERP features', async () => {
    stand.serps.set('chaussures running', {
      features: ['featured_snippet', 'people_also_ask'],
      organic: [
        { domain: 'www.decathlon.fr', url: 'https://www.decathlon.fr/running' },
        { domain: 'www.other.test', url: 'https://www.other.test/' },
        { domain: 'shop.test', url: 'https://shop.test/running' },
        { domain: 'www.shop.test', url: 'https://www.shop.test/other' },
      ],
    });
    const result = await serp.check({ keyword: 'chaussures running', domain: 'www.shop.test', ...market });
    // rank_absolute would be 5: the features above count there, not in the organic position.
    expect(result).toEqual({ position: 3, url: 'https://shop.test/running', serpFeatures: ['featured_snippet', 'people_also_ask'] });
  });

  it('counts subdomains as the site and answers null outside the results', async () => {
    stand.serps.set('a', { organic: [{ domain: 'blog.shop.test', url: 'https://blog.shop.test/a' }] });
    expect((await serp.check({ keyword: 'a', domain: 'www.shop.test', ...market })).position).toBe(1);
    stand.serps.set('b', { organic: [{ domain: 'notshop.test', url: 'https://notshop.test/' }] });
    expect(await serp.check({ keyword: 'b', domain: 'shop.test', ...market })).toEqual({ position: null, url: null, serpFeatures: [] });
  });

  it('fails with DataForSEO’s message when the task is refused under HTTP 200', async () => {
    stand.failNext(40200, 'Payment Required.');
    const error = await serp.check({ keyword: 'x', domain: 'shop.test', ...market }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('Payment Required.');
    expect(error.details).toMatchObject({ status: 200, code: 40200, retryable: false });
  });

  it('fails on wrong credentials (HTTP 401, status_code 40100)', async () => {
    const wrong = createDataForSeoSerp({ login: 'api@example.test', password: 'nope' });
    const error = await wrong.check({ keyword: 'x', domain: 'shop.test', ...market }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.details).toMatchObject({ status: 401, code: 40100 });
  });
});

describe('DataForSEO keyword data adapter', () => {
  it('reads volume, difficulty and intent; unknown keywords are absent', async () => {
    stand.overview.set('chaussures running', { search_volume: 12100, keyword_difficulty: 47, main_intent: 'commercial' });
    const data = createDataForSeoKeywordData({ login: 'api@example.test', password: 's3cret' });
    const result = await data.lookup({ keywords: ['chaussures running', 'inconnu du tout'], location: 'France', country: 'FR', language: 'fr' });
    expect(result).toEqual([{ keyword: 'chaussures running', searchVolume: 12100, keywordDifficulty: 47, searchIntent: 'commercial' }]);
    expect(stand.calls.at(-1)!.task).toEqual({ keywords: ['chaussures running', 'inconnu du tout'], location_name: 'France', language_code: 'fr' });
  });
});

describe('sameSite', () => {
  it.each([
    ['www.shop.test', 'shop.test', true],
    ['shop.test', 'www.shop.test', true],
    ['blog.shop.test', 'www.shop.test', true],
    ['SHOP.TEST.', 'shop.test', true],
    ['myshop.test', 'shop.test', false],
    ['shop.test.evil', 'shop.test', false],
  ])('%s belongs to %s: %s', (result, site, expected) => {
    expect(sameSite(result, site)).toBe(expected);
  });
});
