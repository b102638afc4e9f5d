/**
 * Refreshes the published crawler ranges the log module verifies claims against
 * (packages/server/src/modules/logs/ranges, docs/decisions/logs.md): downloads Google's and Bing's
 * files as published, checks their shape, writes them byte for byte and records the date in
 * SOURCES.md. Run on a machine that reaches the publishers:
 *
 *   npx tsx scripts/refresh-bot-ranges.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../packages/server/src/modules/logs/ranges/', import.meta.url));

export const RANGE_FILES = {
  'googlebot.json': 'https://developers.google.com/static/search/apis/ipranges/googlebot.json',
  'special-crawlers.json': 'https://developers.google.com/static/search/apis/ipranges/special-crawlers.json',
  'bingbot.json': 'https://www.bing.com/toolbox/bingbot.json',
} as const;

interface RangeFile {
  creationTime?: string;
  prefixes: { ipv4Prefix?: string; ipv6Prefix?: string }[];
}

function check(name: string, text: string): RangeFile {
  const doc = JSON.parse(text) as RangeFile;
  if (!Array.isArray(doc.prefixes) || doc.prefixes.length === 0 || !doc.prefixes.every((p) => typeof (p.ipv4Prefix ?? p.ipv6Prefix) === 'string')) {
    throw new Error(`${name}: not a list of ipv4Prefix/ipv6Prefix entries`);
  }
  return doc;
}

async function main(): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  let sources = readFileSync(`${DIR}SOURCES.md`, 'utf8');
  for (const [name, url] of Object.entries(RANGE_FILES)) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const text = await res.text();
    const doc = check(name, text);
    writeFileSync(`${DIR}${name}`, text);
    // The file's row: the publisher's own copy now, its creationTime and today's date.
    sources = sources.replace(new RegExp(`^\\| ${name.replace('.', '\\.')} \\|.*$`, 'm'), `| ${name} | ${url} | the publisher's file, byte for byte | ${doc.creationTime ?? 'unknown'} | ${today} |`);
    console.log(`${name}: ${doc.prefixes.length} prefixes, creationTime ${doc.creationTime ?? 'unknown'}`);
  }
  writeFileSync(`${DIR}SOURCES.md`, sources);
}

await main();
