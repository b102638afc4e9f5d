/**
 * One convention for work that stops because it was asked to (a crawl stopped, a job aborted at
 * shutdown, a request cancelled): the error thrown is named `AbortError` — the DOMException that
 * `AbortSignal.abort()`, `signal.throwIfAborted()` and `fetch` already throw — and callers test it
 * with `isAbortError`, never with a class of their own. Why it stopped (shutdown, a lost lease, a
 * stop request) is the signal's business (`signal.reason`), not the error's class.
 */

/** An error that means "stopped on request", not a failure to record or retry. */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** The error to throw when `signal` stopped the work: its reason if that follows the convention, else an AbortError carrying it as cause. */
export function abortError(signal?: AbortSignal, message = 'The operation was aborted'): Error {
  const reason: unknown = signal?.reason;
  if (isAbortError(reason)) return reason as Error;
  const error = new DOMException(message, 'AbortError');
  if (reason !== undefined) Object.defineProperty(error, 'cause', { value: reason });
  return error;
}

/** `signal.throwIfAborted()` under the convention: the error thrown always answers isAbortError. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError(signal);
}
