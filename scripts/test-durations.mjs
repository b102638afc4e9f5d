#!/usr/bin/env node
// Refreshes .ci/test-durations.json, the per-file times the CI lanes are balanced by
// (tests/setup/duration-sequencer.ts), from vitest JSON reports of whole projects:
//   npx vitest run --project postgres --reporter=json --outputFile=/tmp/postgres.json
//   node scripts/test-durations.mjs postgres=/tmp/postgres.json [sqlite=/tmp/sqlite.json …]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const file = path.join(root, '.ci/test-durations.json');
const times = JSON.parse(readFileSync(file, 'utf8'));
for (const arg of process.argv.slice(2)) {
  const [project, report] = arg.split('=');
  if (!project || !report) throw new Error(`expected project=report.json, got ${arg}`);
  for (const result of JSON.parse(readFileSync(report, 'utf8')).testResults) {
    times[`${project}:${path.relative(root, result.name)}`] = Math.round((result.endTime - result.startTime) / 100) / 10;
  }
}
writeFileSync(file, `${JSON.stringify(Object.fromEntries(Object.entries(times).sort()), null, 1)}\n`);
