/**
 * Shards by recorded time instead of by file count: with `--shard=i/n`, each file goes, longest
 * first, to the shard with the least time so far (times from .ci/test-durations.json, refreshed
 * by `node scripts/test-durations.mjs <vitest json report>…`; a file not in it counts as the
 * median). Every process computes the same split from the same list, so the shards cover each
 * file exactly once. Without --shard, vitest's own order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What starting a file costs beside its tests, in seconds: a database, and the server's modules
 * only for the first file of a worker or an isolated file (most files share their worker's).
 */
const FILE_OVERHEAD_S = 1;

function recordedTimes(root: string): Map<string, number> {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(path.join(root, '.ci/test-durations.json'), 'utf8')) as Record<string, number>));
  } catch {
    return new Map();
  }
}

export class DurationSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const root = this.ctx.config.root;
    const times = recordedTimes(root);
    const known = [...times.values()].sort((a, b) => a - b);
    const median = known.length > 0 ? known[Math.floor(known.length / 2)] : 1;
    const keyed = files
      .map((spec) => {
        // `postgres:isolated` files are recorded under their database's name, as before the split.
        const key = `${spec.project.name.replace(/:isolated$/, '')}:${path.relative(root, spec.moduleId).split(path.sep).join('/')}`;
        return { spec, key, time: (times.get(key) ?? median) + FILE_OVERHEAD_S };
      })
      .sort((a, b) => b.time - a.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const load = Array.from({ length: count }, () => 0);
    const mine: TestSpecification[] = [];
    for (const file of keyed) {
      const shard = load.indexOf(Math.min(...load));
      load[shard] += file.time;
      if (shard === index - 1) mine.push(file.spec);
    }
    return mine;
  }
}
