/**
 * The little HTTP layer the provider adapters share: JSON over the global `fetch` (injectable,
 * and what msw intercepts in tests), a per-call timeout, and one error type that says which
 * provider failed and whether trying again later may help.
 */

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly details: { status?: number; code?: number | string; retryable?: boolean } = {},
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** POSTs JSON (or a prepared body) and returns the parsed JSON answer, whatever its status. */
export async function requestJson(
  provider: string,
  fetchImpl: FetchLike,
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<{ status: number; json: any }> {
  const timeout = AbortSignal.timeout(init.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetchImpl(url, { method: 'POST', headers: init.headers, body: init.body, signal });
  } catch (error) {
    throw new ProviderError(provider, `request failed: ${error instanceof Error ? error.message : String(error)}`, { retryable: true });
  }
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ProviderError(provider, `answered ${response.status} with a body that is not JSON`, { status: response.status, retryable: response.status >= 500 });
  }
  return { status: response.status, json };
}
