/**
 * bench/logs's server (plain JavaScript, so the built server runs under plain Node as it does in
 * production): one server with a team, a token and a project, printed as JSON on stdout; between
 * the parent's `start` and `stop` messages it measures its API thread's event-loop delay
 * (monitorEventLoopDelay, 10 ms resolution), its RSS every 50 ms, and answers with them, the
 * kernel's peak RSS (VmHWM, every thread included) and when the longest pauses happened (a 10 ms
 * timer late by more than 50 ms, in ms since `start`).
 *
 *   node bench/logs/serve.mjs <database> <dir> built|source|<path of a built index.js>
 *
 * (a path: another build of the server, for bench/logs/cpu.ts's before-and-after comparison)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** CPU ms of each live thread of this process by name (from /proc/self/task, Linux only, else {}). */
function threadCpu() {
  const byName = {};
  try {
    const tick = 1000 / 100; // USER_HZ
    for (const task of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * tick;
    }
  } catch {
    // not Linux
  }
  return byName;
}

const [database, dir, mode] = process.argv.slice(2);
const MB = 1024 * 1024;
const round = (n) => Math.round(n * 10) / 10;

function kernelPeakRss() {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const entry = mode === 'source' ? '../../packages/server/src/index.ts' : mode === 'built' ? '../../packages/server/dist/index.js' : pathToFileURL(path.resolve(mode)).href;
const { createSiteAuditServer } = await import(entry);
const server = await createSiteAuditServer({
  logger: { error: (message, error) => console.error(message, error) },
  database,
  secretKey: 'bench-secret-key-0123456789abcdef0123',
  validateResponses: false,
  plans: { agency: { rateLimits: { minute: 1_000_000_000, day: 1_000_000_000 } } },
  logs: {
    directory: path.join(dir, 'uploads'),
    // No PTR for anyone, at once: the network is not what is measured.
    resolver: { reverse: () => Promise.reject(Object.assign(new Error('no PTR'), { code: 'ENOTFOUND' })), lookup: () => Promise.resolve([]) },
  },
});
const { url } = await server.listen(0);
await server.admin.createTeam({ slug: 'bench', name: 'Bench', plan: 'agency' });
await server.admin.addMember({ team: 'bench', email: 'bench@bench.test', name: 'Bench', role: 'owner' });
const { token } = await server.admin.createToken({ team: 'bench', member: 'bench@bench.test', name: 'bench', scopes: ['projects:read', 'projects:write'] });
const res = await fetch(`${url}/v1/projects`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ url: 'https://boutique.example/' }),
});
if (res.status !== 201) throw new Error(`project: ${res.status} ${await res.text()}`);
const project = (await res.json()).data.id;

const delay = monitorEventLoopDelay({ resolution: 10 });
let peak = 0;
let baseline = 0;
let sampler;
let ticker;
let stalls = [];
let cpu = process.cpuUsage();
let threadsAtStart = {};
process.on('message', (message) => {
  if (message === 'start') {
    baseline = process.memoryUsage().rss;
    delay.reset();
    delay.enable();
    cpu = process.cpuUsage();
    threadsAtStart = threadCpu();
    sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    stalls = [];
    const started = performance.now();
    let last = started;
    ticker = setInterval(() => {
      const now = performance.now();
      if (now - last > 60) stalls.push({ at_ms: Math.round(last - started), late_ms: Math.round(now - last - 10) });
      last = now;
    }, 10);
  } else if (message === 'stop') {
    delay.disable();
    clearInterval(sampler);
    clearInterval(ticker);
    const used = process.cpuUsage(cpu);
    const hwm = kernelPeakRss();
    process.send({
      stall_max_ms: round(delay.max / 1e6),
      stall_p99_ms: round(delay.percentile(99) / 1e6),
      stall_mean_ms: round(delay.mean / 1e6),
      rss_baseline_mb: round(baseline / MB),
      rss_peak_mb: round(peak / MB),
      rss_hwm_mb: hwm === null ? null : round(hwm / MB),
      cpu_ms: Math.round((used.user + used.system) / 1000),
      // Threads still running at the end (the API thread, libuv's pool, …); a thread that ended
      // meanwhile (an import's parse thread) is what the process's CPU leaves over.
      threads_cpu_ms: (() => {
        const now = threadCpu();
        const out = {};
        for (const [name, ms] of Object.entries(now)) out[name] = Math.round(ms - (threadsAtStart[name] ?? 0));
        out['(ended threads)'] = Math.round((used.user + used.system) / 1000 - Object.values(out).reduce((a, b) => a + b, 0));
        return out;
      })(),
      longest_stalls: [...stalls].sort((a, b) => b.late_ms - a.late_ms).slice(0, 10),
    });
  }
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ url, token, project })}\n`);
