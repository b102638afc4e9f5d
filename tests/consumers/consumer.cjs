// A CommonJS consumer: require() of the built packages, as a user's project would.
const assert = require('node:assert');
const { createClient, SiteAuditError, NotFoundError, verifyWebhook } = require('@siteaudit/client');
const { createSiteAuditServer } = require('@siteaudit/server');
const { contract } = require('@siteaudit/schema');
// The shared rules and the request pipeline are subpaths of their own, beside the contract.
const { pickLanguage } = require('@siteaudit/schema/rules');
const { createPipeline } = require('@siteaudit/schema/pipeline');
assert.strictEqual(pickLanguage('en-GB'), 'en');
assert.strictEqual(typeof createPipeline, 'function');
assert.strictEqual(require('@siteaudit/schema').pickLanguage, undefined);

assert.strictEqual(typeof createClient, 'function');
assert.strictEqual(typeof verifyWebhook, 'function');
assert.strictEqual(typeof createSiteAuditServer, 'function');
// The spec's 40 operations and the marked extensions (docs/decisions).
assert.strictEqual(Object.values(contract).filter((op) => !op.extension).length, 40);
assert.strictEqual(Object.keys(contract).length, 52);
assert.ok(new NotFoundError({ status: 404, code: 'not_found', title: 'x' }) instanceof SiteAuditError);
console.log('cjs ok');
