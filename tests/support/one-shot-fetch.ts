/**
 * `fetch` over a connection of its own (no keep-alive), for tests whose process stalls between
 * requests to a server that ends idle connections after 5 s.
 *
 * A keep-alive client and a server each end an idle connection on a timer; a request sent as the
 * server's fires meets a reset (ECONNRESET, "fetch failed"). Timers are only late when a process is
 * starved of CPU: on the 2-core CI machine the test's process stalled for seconds, then sent on a
 * pooled connection before either timer had run, and the server's reset it (docs/ci.md). That race
 * is every keep-alive client's with every server; graceful-stop.test.ts and crash-shutdown.test.ts
 * test our stops and keep-alive with node:http agents of their own.
 *
 * Each answer's body is read whole before it is returned: a server closes a connection that is not
 * kept alive after its answer, and undici (6 and 7) throws an uncatchable assertion when that
 * close meets a parser paused by an unread body (nodejs/undici#5360, fixed in undici 8 only).
 */
import { Agent, fetch as undiciFetch } from 'undici';

export interface OneShotFetch {
  fetch: typeof fetch;
  close(): Promise<void>;
}

export function oneShotFetch(): OneShotFetch {
  const agent = new Agent({ pipelining: 0 });
  const send = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await undiciFetch(url, { ...(init as object), dispatcher: agent });
    const body = await res.arrayBuffer();
    const empty = res.status === 204 || res.status === 304 || init?.method === 'HEAD';
    return new Response(empty ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers as unknown as Headers });
  };
  return { fetch: send as typeof fetch, close: () => agent.close() };
}
