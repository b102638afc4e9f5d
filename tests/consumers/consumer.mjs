// An ES module consumer: import of the built packages, and a real call through the client.
import assert from 'node:assert';
import { createClient, NotFoundError } from '@siteaudit/client';
import { createMockApi } from '@siteaudit/mock';
import { createSiteAuditServer } from '@siteaudit/server';
import { OPERATIONS } from '@siteaudit/schema/operations';
import * as contract from '@siteaudit/schema';
import { pickLanguage } from '@siteaudit/schema/rules';
import { createPipeline } from '@siteaudit/schema/pipeline';
import * as serverPackage from '@siteaudit/server';

// The contract at the root; the shared rules and the request pipeline under subpaths of their own.
assert.strictEqual(pickLanguage('en-GB'), 'en');
assert.strictEqual(typeof createPipeline, 'function');
assert.ok(!('pickLanguage' in contract) && !('createPipeline' in contract));
// The server's surface names its providers' factories, not their endpoints or Google's signing.
assert.strictEqual(typeof serverPackage.createGoogleSearchConsole, 'function');
assert.ok(!('GOOGLE_TOKEN_URL' in serverPackage) && !('serviceAccountAssertion' in serverPackage));

// The spec's 40 operations and the marked extensions (docs/decisions).
assert.strictEqual(Object.values(OPERATIONS).filter((op) => !op.extension).length, 40);
assert.strictEqual(Object.keys(OPERATIONS).length, 52);
assert.strictEqual(typeof createMockApi, 'function');
const server = await createSiteAuditServer({ database: 'sqlite::memory:', secretKey: 'consumer-test-secret-0123456789abcdef' });
try {
  await server.admin.createTeam({ slug: 'esm', name: 'ESM', plan: 'pro' });
  await server.admin.addMember({ team: 'esm', email: 'o@esm.test', name: 'O', role: 'owner' });
  const { token } = await server.admin.createToken({ team: 'esm', member: 'o@esm.test', name: 't', scopes: ['projects:read'] });
  const { url } = await server.listen(0);
  const client = createClient({ baseUrl: url, token });
  const page = await client.projects.list();
  assert.deepStrictEqual(page.data, []);
  const missing = await client.projects.get({ project: '00000000-0000-4000-8000-000000000000' }).catch((e) => e);
  assert.ok(missing instanceof NotFoundError);
} finally {
  await server.close();
}
console.log('esm ok');
