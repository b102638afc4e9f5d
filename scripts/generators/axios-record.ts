/** Recording and answers for the axios-based clients (orval, openapi-zod-client through Zodios). */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { Answer, Setup } from './api';

const headersOf = (response: AxiosResponse): Record<string, string> =>
  Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));

/** Records every answer an axios instance receives, success or error, as it came over the wire. */
export function recordAxios(instance: AxiosInstance, setup: Setup): void {
  const record = (response: AxiosResponse): void => {
    const headers = headersOf(response);
    const json = /json/.test(headers['content-type'] ?? '');
    setup.record({
      method: (response.config.method ?? 'get').toUpperCase(),
      path: new URL(instance.getUri(response.config)).pathname,
      status: response.status,
      headers,
      text: json ? (typeof response.data === 'string' ? response.data : JSON.stringify(response.data)) : null,
    });
  };
  instance.interceptors.response.use(
    (response) => (record(response), response),
    (error: unknown) => {
      if (axios.isAxiosError(error) && error.response) record(error.response);
      return Promise.reject(error);
    },
  );
}

/** The answer of a call, a non-2xx included (axios rejects it: the error carries the response). */
export async function settle(call: Promise<AxiosResponse<unknown>> | Promise<unknown>): Promise<Answer> {
  try {
    const response = (await call) as AxiosResponse<unknown>;
    return { status: response.status, body: response.data, headers: headersOf(response) };
  } catch (error) {
    if (axios.isAxiosError(error) && error.response) return { status: error.response.status, body: error.response.data, headers: headersOf(error.response) };
    throw error;
  }
}
