/**
 * The one problem class of the server and the mock: a refusal from the error catalogue, thrown
 * by rules and handlers and answered as RFC 9457 problem details in the caller's language.
 */
import { buildProblem, type ProblemExtras } from '../rules/problem-bodies.js';
import { allowedMethods } from '../rules/routing.js';
import type { ErrorCode, Language } from '../errors.js';
import type { Answer } from './ports.js';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly extras: ProblemExtras = {},
    /** Headers the refusal carries, such as Retry-After, Allow or WWW-Authenticate. */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof extras.detail === 'object' ? extras.detail.en : (extras.detail ?? code));
    this.name = 'ApiError';
  }
}

/**
 * The refusal of a request the contract does not route, the same in the server and the mock: 405
 * `method_not_allowed` with `Allow` when the contract routes `path` (under `/v1`) for other
 * methods, else 404 `not_found`; a null path (outside the API) is 404.
 */
export function unroutedError(path: string | null): ApiError {
  const allowed = path === null ? [] : allowedMethods(path);
  return allowed.length > 0 ? new ApiError('method_not_allowed', {}, { Allow: allowed.join(', ') }) : new ApiError('not_found');
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
