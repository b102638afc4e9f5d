import { ApiError } from '@siteaudit/schema/pipeline';

/**
 * A refusal from the catalogue: the one problem class, shared with the mock through the request
 * pipeline of `@siteaudit/schema`. `headers` carries e.g. Retry-After or Allow.
 */
export { ApiError };

export const notFound = () => new ApiError('not_found');

/**
 * A DELETE's row count: none deleted means a request deleting the same resource went first, and
 * this one answers as it would after it (404), never a second 204.
 */
export function deletedOrNotFound(count: number): void {
  if (count === 0) throw notFound();
}
