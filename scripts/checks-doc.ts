/** Regenerates docs/checks.md from the check catalogue (`npm run docs:checks`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checksMarkdown } from '../packages/schema/src/rules/checks-reference.js';

const target = fileURLToPath(new URL('../docs/checks.md', import.meta.url));
writeFileSync(target, checksMarkdown());
console.log(`wrote ${target}`);
