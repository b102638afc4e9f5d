import { ApiError } from '@siteaudit/schema/pipeline';

/**
 * A refusal from the catalogue: the one problem class, shared with the mock through the request
 * pipeline of `@siteaudit/schema`. `headers` carries e.g. Retry-After or Allow.
 */
export { ApiError };

export const notFound = () => new ApiError('not_found');
