import type { ErrorCode, ProblemExtras } from '@siteaudit/schema';

/**
 * A refusal from the catalogue. Handlers and rules throw it; the app turns it into problem
 * details titled in the caller's language. `headers` carries e.g. Retry-After or Allow.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(extras.detail ?? code);
    this.name = 'ApiError';
  }
}

export const notFound = () => new ApiError('not_found');
