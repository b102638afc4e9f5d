// `npm run build`: the four packages, the schema first (the others import its build), then the
// server, the mock and the client, as many at a time as there are cores (at most 3). Each build's
// declarations (tsup's dts) take one core for 20–90 s: run in turn they were two thirds of
// `npm ci` in CI, with the second core idle.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const build = (workspace) =>
  new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '-w', workspace], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${workspace}: build failed (${signal ?? code})`))));
  });

await build('@siteaudit/schema');
// Longest first, so the last to start is a short one.
const queue = ['@siteaudit/server', '@siteaudit/mock', '@siteaudit/client'];
const lanes = Math.max(1, Math.min(queue.length, availableParallelism()));
await Promise.all(
  Array.from({ length: lanes }, async () => {
    while (queue.length > 0) await build(queue.shift());
  }),
);
