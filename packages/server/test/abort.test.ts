/** The abort convention (src/abort.ts): whatever stopped the work, the error thrown answers isAbortError. */
import { describe, expect, it } from 'vitest';
import { abortError, isAbortError, throwIfAborted } from '../src/abort.js';

describe('isAbortError', () => {
  it('recognises what AbortSignal and fetch throw, and nothing else', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(controller.signal.reason)).toBe(true);
    const fetched = await fetch('http://127.0.0.1:9/', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isAbortError(fetched)).toBe(true);
    for (const other of [new Error('boom'), AbortSignal.timeout(0).reason, null, 'AbortError', { message: 'x' }]) expect(isAbortError(other)).toBe(false);
  });

  it('throws an AbortError carrying a reason of another kind as its cause', () => {
    const controller = new AbortController();
    const lost = new Error('lease lost');
    controller.abort(lost);
    let thrown: unknown;
    try {
      throwIfAborted(controller.signal);
    } catch (error) {
      thrown = error;
    }
    expect(isAbortError(thrown)).toBe(true);
    expect((thrown as Error).cause).toBe(lost);
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
    expect(isAbortError(abortError())).toBe(true);
  });
});
