/**
 * The cost of the request log and the metrics on the API read (issue 17): bench/api/run.ts in
 * its `--observability` mode, so both benchmarks share one load generator and one way of
 * measuring. Arguments are passed on (`--rounds`, `--duration`, …).
 *
 *   npx tsx bench/api-logs/run.ts [--rounds 5] [--duration 5]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../api/run.ts', import.meta.url));
const child = spawn(process.execPath, [...process.execArgv, script, '--observability', '--rounds', '5', ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
