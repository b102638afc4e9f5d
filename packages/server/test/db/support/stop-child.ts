/**
 * A server process for graceful-stop.test.ts. It serves the API; on SIGTERM it stops the server
 * as the CLI does (`server.close()`, src/cli.ts), then starts a new server on the same database and
 * serves again. One process, whose modules load once, thus stands for a series of stops and
 * restarts: a restart costs a server's start (tens of milliseconds), not a process's (seconds).
 *
 *   node --import tsx stop-child.ts <database> [shutdownDelayMs] [shutdownGraceMs]
 *
 * stdout: `listening <port>` once serving, `closed in <n> ms` once a stop has finished. It exits when its
 * stdin closes (the test ended or died).
 */
import { createSiteAuditServer } from '../../../src/index.js';

const [database, delay = '0', grace = '10000'] = process.argv.slice(2);

// The test's thousands of calls would pass a plan's rate limit; rate limits are not what it tries.
const plans = { agency: { rateLimits: { minute: 1_000_000, day: 10_000_000 } } };

process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

for (;;) {
  const server = await createSiteAuditServer({ database, role: 'api', logger: false, plans, shutdownDelayMs: Number(delay), shutdownGraceMs: Number(grace) });
  const { port } = await server.listen(0);
  process.stdout.write(`listening ${port}\n`);
  await new Promise((resolve) => process.once('SIGTERM', resolve));
  const stopping = performance.now();
  await server.close();
  process.stdout.write(`closed in ${Math.round(performance.now() - stopping)} ms\n`);
}
