/**
 * The network guard with a real Chromium: every request of a rendered page (image, script
 * fetch, link to follow) goes through the guard proxy; a refused destination is never reached,
 * while the page's own host is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefusedError } from '../../src/net/address-guard.js';
import { createRenderer, type Renderer } from '../../src/rendering/index.js';
import { BROWSER_TIMEOUT, CHROME, HAS_CHROMIUM, SKIP_NOTE, page, serve, type LocalSite } from '../../../../tests/support/rendering.js';

let site: LocalSite;
let secret: LocalSite;
let renderer: Renderer;

beforeAll(async () => {
  // "localhost" plays the private network the guard protects; 127.0.0.1 the public site.
  secret = await serve({ '/pixel.png': { type: 'image/png', body: '' }, '/api': { type: 'application/json', body: '{}' } });
  const secretUrl = `http://localhost:${new URL(secret.url).port}`;
  site = await serve({
    '/': {
      body: page({
        body: `<main><h1>Guarded</h1><img src="${secretUrl}/pixel.png" alt="" width="1" height="1"><img src="/own.png" alt="" width="1" height="1"></main>
<script>fetch('${secretUrl}/api').catch(() => { document.title = 'blocked'; });</script>`,
      }),
    },
    '/own.png': { type: 'image/png', body: '' },
  });
  renderer = createRenderer({
    executablePath: CHROME,
    allowPrivateAddresses: true,
    vet: async (host) => {
      if (host !== '127.0.0.1') throw new AddressRefusedError(host, '127.0.0.1');
      return { address: '127.0.0.1', family: 4 };
    },
  });
});
afterAll(async () => {
  await renderer?.close();
  await site?.close();
  await secret?.close();
});

describe.skipIf(!HAS_CHROMIUM)(`the browser behind the network guard${SKIP_NOTE}`, () => {
  it(
    'never reaches a refused destination, whatever the page asks for',
    async () => {
      const html = (await (await fetch(`${site.url}/`)).text());
      const rendered = await renderer.render({ url: `${site.url}/`, status: 200, headers: {}, html }, { accessibility: 'none' });
      expect(rendered.html).toContain('<title>blocked</title>');
      expect(secret.hits.size).toBe(0);
      expect(site.hits.get('/own.png')).toBe(1);
      expect(renderer.guard!.refused.map((r) => r.host)).toContain('localhost');
    },
    BROWSER_TIMEOUT,
  );
});
