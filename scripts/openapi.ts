/** Regenerates docs/openapi.json from the contract (`npm run openapi`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../packages/schema/src/openapi.js';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
