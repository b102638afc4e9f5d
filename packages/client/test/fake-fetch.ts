/** A scripted `fetch`: records every request and answers from a queue (the last answer repeats). */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when none was sent. */
  body: unknown;
  signal: AbortSignal | undefined;
}

export type Reply = Response | Error | ((req: RecordedRequest) => Response | Promise<Response>);

export function fakeFetch(...replies: Reply[]) {
  const requests: RecordedRequest[] = [];
  const queue = [...replies];
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const req: RecordedRequest = {
      method: init.method ?? 'GET',
      url: new URL(input),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      signal: init.signal ?? undefined,
    };
    requests.push(req);
    const reply = queue.length > 1 ? queue.shift()! : queue[0];
    if (reply === undefined) throw new Error('fakeFetch: no reply scripted');
    if (reply instanceof Error) throw reply;
    if (typeof reply === 'function') return reply(req);
    // A Response can be read once: hand out a copy so a repeated reply still works.
    return reply.clone();
  };
  return {
    fetch,
    requests,
    /** Adds answers at the end of the queue. */
    reply: (...more: Reply[]) => queue.push(...more),
  };
}

const NULL_BODY = new Set([204, 304]);

export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  const hasBody = body !== undefined && !NULL_BODY.has(status);
  return new Response(hasBody ? JSON.stringify(body) : null, {
    status,
    headers: hasBody ? { 'content-type': 'application/json', ...headers } : headers,
  });
}

/** An RFC 9457 problem answer as the server sends it. */
export function problem(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return new Response(
    JSON.stringify({ type: `https://siteaudit.dev/docs/errors#${code}`, title: `Title of ${code}`, status, code, ...extra }),
    { status, headers: { 'content-type': 'application/problem+json', ...headers } },
  );
}

export const page = <T>(data: T[], next: string | null, limit = 25) => ({
  data,
  meta: { limit, has_more: next !== null, next_cursor: next },
});

export const ids = {
  project: '11111111-1111-4111-8111-111111111111',
  campaign: '22222222-2222-4222-8222-222222222222',
  crawl: '33333333-3333-4333-8333-333333333333',
  export: '44444444-4444-4444-8444-444444444444',
  webhook: '55555555-5555-4555-8555-555555555555',
} as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
