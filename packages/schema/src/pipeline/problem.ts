/**
 * The one problem class of the server and the mock: a refusal from the error catalogue, thrown
 * by rules and handlers and answered as RFC 9457 problem details in the caller's language.
 */
import { buildProblem, type ProblemExtras } from '../rules.js';
import type { ErrorCode, Language } from '../errors.js';
import type { Answer } from './ports.js';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly extras: ProblemExtras = {},
    /** Headers the refusal carries, such as Retry-After, Allow or WWW-Authenticate. */
    readonly headers: Record<string, string> = {},
  ) {
    super(extras.detail ?? code);
    this.name = 'ApiError';
  }
}

/** The answer of a refusal: problem details titled in `language`, with the request id, `type` under `typeBase`. */
export function problemAnswer(error: ApiError, language: Language, requestId: string, typeBase?: string): Answer<never> {
  const problem = buildProblem(error.code, language, { ...error.extras, request_id: requestId }, typeBase);
  return {
    status: problem.status,
    body: JSON.stringify(problem),
    headers: { 'Content-Type': 'application/problem+json', ...error.headers },
  };
}
