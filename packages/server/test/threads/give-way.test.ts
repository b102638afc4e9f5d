import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS } from '../../src/threads/give-way.js';

// Linux only (a thread's own nice value), and only where there is room to lower it (not under `nice -n 19`).
describe.skipIf(process.platform !== 'linux' || getPriority() > 19 - BACKGROUND_NICENESS)('background threads give way to requests', () => {
  it('lowers the priority of the calling thread only, not of the process', async () => {
    const module = new URL('../../src/threads/give-way.ts', import.meta.url).href;
    const before = getPriority();
    // The thread imports the module through tsx, as the server's threads do from the sources.
    const worker = new Worker(
      `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); }).then((m) => {
        m.giveWayToRequests();
        require('node:worker_threads').parentPort.postMessage(require('node:os').getPriority());
      })`,
      { eval: true },
    );
    const threadPriority = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(threadPriority).toBe(before + BACKGROUND_NICENESS);
    expect(getPriority()).toBe(before);
  });
});
