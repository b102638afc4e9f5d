/**
 * Small helpers shared by the HTTP-boundary tests: a clock the test moves by hand, a request
 * sender, and the checks every problem answer must pass (status, media type, stable code).
 */
import { expect } from 'vitest';

export interface ManualClock {
  clock: () => Date;
  set(at: string | Date): void;
  advance(ms: number): void;
  now(): Date;
}

export function manualClock(start: string | Date): ManualClock {
  let t = new Date(start).getTime();
  return {
    clock: () => new Date(t),
    set(at) {
      t = new Date(at).getTime();
    },
    advance(ms) {
      t += ms;
    },
    now: () => new Date(t),
  };
}

/** Asserts an RFC 9457 answer with this status and code, and returns its body. */
export async function expectProblem(res: Response, status: number, code: string): Promise<any> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
  const body = JSON.parse(text);
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(typeof body.title).toBe('string');
  // The default documentation base when embedded; a CLI-started server points at its own /docs.
  expect(body.type).toMatch(new RegExp(`^(https://siteaudit\\.dev|http://127\\.0\\.0\\.1:\\d+)/docs/errors#${code.replace(/\./g, '\\.')}$`));
  return body;
}

/** A problem body without what differs from one request to the next. */
export function stable(problem: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _id, ...rest } = problem;
  return rest;
}

export const DAY_MS = 86_400_000;

export interface CallInit {
  /** Default: the caller's token; null sends none. */
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body sent as is. */
  raw?: string;
}

/** Sends requests to `base` as a client would: a bearer token, a JSON body. */
export function caller(base: string, token: string): (method: string, path: string, init?: CallInit) => Promise<Response & { json(): Promise<any> }> {
  return (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const bearer = init.token === undefined ? token : init.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(`${base}${path}`, { method, headers, body });
  };
}
