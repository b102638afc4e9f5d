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
import { openDatabase } from '../../../src/store/database.js';

const [database, delay = '0', grace = '10000'] = process.argv.slice(2);

// The test's thousands of calls would pass a plan's rate limit; rate limits are not what it tries.
const plans = { agency: { rateLimits: { minute: 1_000_000, day: 10_000_000 } } };

process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

// One handler for the process's life: with one added per server (process.once), about one stop
// in a few dozen killed the child outright, by the signal's default action.
let stop: (() => void) | null = null;
process.on('SIGTERM', () => {
  const wake = stop;
  stop = null;
  if (wake) wake();
  else process.stdout.write('SIGTERM while not serving\n');
});

// One pool for the process's life, as the CLI's one server has: a pool per restart would open up
// to 10 new PostgreSQL sessions at each of the test's 200 stops. The servers do not own it, so
// a close does everything but destroy it.
const { knex } = openDatabase(database);

for (;;) {
  const server = await createSiteAuditServer({
    database: knex,
    role: 'api',
    logger: false,
    plans,
    // As in the other tests (harness.ts), a project's URL is not looked up in DNS at creation:
    // a resolver that drops some of a burst's queries holds those requests for its 5 s retry,
    // and the stop waits for them (stops of 5 or 10 s).
    network: { allowPrivateAddresses: true },
    shutdownDelayMs: Number(delay),
    shutdownGraceMs: Number(grace),
  });
  const { port } = await server.listen(0);
  const signalled = new Promise<void>((resolve) => (stop = resolve));
  process.stdout.write(`listening ${port}\n`);
  await signalled;
  const stopping = performance.now();
  await server.close();
  process.stdout.write(`closed in ${Math.round(performance.now() - stopping)} ms\n`);
}
