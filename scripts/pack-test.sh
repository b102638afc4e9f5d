#!/usr/bin/env bash
# The packages as a user of a clone gets them before publication: `npm run pack` writes the
# four tarballs, an empty project installs the schema, client and mock ones, type-checks the
# quickstart's client script with `tsc --strict` and runs a test of its own against the mock.
# The server's tarball is checked for what it holds and depends on, not installed: its
# dependencies (Chromium tooling, a native SQLite build) take minutes. Part of CI (.ci/run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/siteaudit-pack-XXXXXX")"
trap 'rm -rf "$work"' EXIT

node "$root/scripts/pack.mjs" "$work/tarballs" >/dev/null
tgz() { ls "$work"/tarballs/siteaudit-"$1"-*.tgz; }

app="$work/app"
mkdir -p "$app/src"
cd "$app"
echo '{ "name": "my-app", "private": true, "type": "module" }' >package.json
npm install --no-audit --no-fund --prefer-offline --loglevel=error "$(tgz schema)" "$(tgz client)" "$(tgz mock)" msw zod
for pkg in schema client mock; do
  [ ! -L "node_modules/@siteaudit/$pkg" ] || { echo "pack-test: @siteaudit/$pkg is a link, not the tarball" >&2; exit 1; }
done

# The server's tarball: its bin, its build, and the schema at the version packed beside it.
server_files=$(tar -tzf "$(tgz server)")
for file in package/bin/siteaudit-server.js package/dist/index.js package/dist/index.d.ts package/dist/cli.js; do
  grep -qx "$file" <<<"$server_files" || { echo "pack-test: the server tarball lacks $file" >&2; exit 1; }
done
schema_version=$(node -p "require('./node_modules/@siteaudit/schema/package.json').version")
server_wants=$(tar -xzOf "$(tgz server)" package/package.json | node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>console.log(JSON.parse(s).dependencies['@siteaudit/schema']))")
[ "$server_wants" = "$schema_version" ] || { echo "pack-test: the server wants @siteaudit/schema@$server_wants, $schema_version is packed" >&2; exit 1; }

# The client script of docs/quickstart.md and the TypeScript sample of every operation shown by
# the reference (x-codeSamples of docs/openapi.json), type-checked as a user's project would.
awk '/^```ts$/ { inblock = 1; next } /^```$/ { inblock = 0 } inblock { print }' "$root/docs/quickstart.md" >src/quickstart.ts
[ -s src/quickstart.ts ] || { echo "pack-test: no ts block in docs/quickstart.md" >&2; exit 1; }
mkdir -p src/samples
node -e "
const doc = require(process.argv[1]);
let n = 0;
for (const methods of Object.values(doc.paths)) for (const op of Object.values(methods)) {
  for (const sample of op['x-codeSamples'] ?? []) if (sample.lang === 'TypeScript') { require('fs').writeFileSync('src/samples/' + op.operationId + '.ts', sample.source); n++; }
}
if (n < 40) { console.error('pack-test: ' + n + ' TypeScript samples in docs/openapi.json, expected one per operation'); process.exit(1); }
" "$root/docs/openapi.json"
cat >tsconfig.json <<JSON
{
  "compilerOptions": {
    "strict": true, "noEmit": true, "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "skipLibCheck": true, "typeRoots": ["$root/node_modules/@types"], "types": ["node"]
  },
  "include": ["src"]
}
JSON
"$root/node_modules/.bin/tsc" -p tsconfig.json

# A test of the user's own code against the mock, through the client, on node:test.
cat >mock.test.mjs <<'JS'
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setupServer } from 'msw/node';
import { createMockApi } from '@siteaudit/mock';
import { createClient, ValidationError } from '@siteaudit/client';

test('the client against the mock, as installed from the tarballs', async () => {
  const api = createMockApi({ baseUrl: 'https://api.test' });
  const server = setupServer(...api.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const { token } = api.seed.teamWithProject();
    const client = createClient({ baseUrl: 'https://api.test', token, language: 'en' });
    const project = await client.projects.create({ url: 'https://www.example.com/' });
    assert.equal(project.domain, 'www.example.com');
    await assert.rejects(client.projects.create({ url: 'not a url' }), (err) => err instanceof ValidationError && err.errors.url[0].code === 'invalid_url');
  } finally {
    server.close();
  }
});
JS
node --test mock.test.mjs
echo "pack-test: the tarballs install in an empty project, type-check with tsc --strict and run against the mock"
