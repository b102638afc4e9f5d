#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform-specific optional packages that the registry
 * we install from does not serve (rollup's binaries for Android, macOS, Windows…). `npm install`
 * leaves them out of the lockfile, and `npm ci` then refuses the lockfile as out of sync. An
 * entry naming the package's os, cpu and libc lets `npm ci` validate the lockfile and skip the
 * package on every other platform, without fetching it. Run after `npm install`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'openharmony', 'netbsd', 'sunos', 'aix'];
const CPU = { arm64: 'arm64', arm: 'arm', x64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return null;
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : os === 'linux' && parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    const candidates = [`${base}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => lock.packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[`node_modules/${dep}`] = { version, optional: true, ...platform };
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: ${added} platform-specific optional packages recorded`);
