/**
 * Regenerates docs/openapi.json (OpenAPI 3.1) and docs/openapi-3.0.json (its 3.0.3 rendering, for
 * generators that read only 3.0) from the contract (`npm run openapi`).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApi30Document, buildOpenApiDocument } from '../packages/schema/src/openapi.js';

for (const [file, document] of [
  ['openapi.json', buildOpenApiDocument()],
  ['openapi-3.0.json', buildOpenApi30Document()],
] as const) {
  const target = fileURLToPath(new URL(`../docs/${file}`, import.meta.url));
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${target}`);
}
