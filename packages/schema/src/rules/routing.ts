/** The contract's routes: which operation a method and path name, and which methods a path allows. */
import { OPERATIONS, type HttpMethod, type OperationId, type OperationInfo } from '../operations.js';

interface Route {
  id: OperationId;
  method: HttpMethod;
  pattern: RegExp;
  names: string[];
}
let routes: Route[] | undefined;

/** The contract's routes as patterns, in contract order; built on first use, so that importing the schema costs nothing. */
function compiledRoutes(): Route[] {
  routes ??= (Object.entries(OPERATIONS) as [OperationId, OperationInfo][]).map(([id, op]) => ({
    id,
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/:[a-z_]+/g, '([^/]+)')}/?$`),
    names: [...op.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]),
  }));
  return routes;
}

/**
 * The operation the contract routes for a method on a path (a trailing slash allowed), with its
 * path parameters as they appear in the path (still percent-encoded); null when none.
 */
export function matchOperation(method: string, path: string): { id: OperationId; params: Record<string, string> } | null {
  for (const route of compiledRoutes()) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) params[route.names[i]] = m[i + 1];
    return { id: route.id, params };
  }
  return null;
}

/**
 * Percent-decoded path parameters, in a null-prototype object; a malformed one (`%E0%A4%A`)
 * stays as sent and fails validation (404) instead of throwing.
 */
export function decodePathParams(raw: Record<string, string>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const name in raw) {
    try {
      out[name] = decodeURIComponent(raw[name]);
    } catch {
      out[name] = raw[name];
    }
  }
  return out;
}

/**
 * The methods the contract routes on a path under `/v1` (a trailing slash allowed), for the
 * answer to a method it does not route: 405 `method_not_allowed` with `Allow` when there are
 * some, else 404 `not_found`.
 */
export function allowedMethods(path: string): (HttpMethod | 'HEAD')[] {
  const methods = [...new Set(compiledRoutes().filter((r) => r.pattern.test(path)).map((r) => r.method))];
  // A GET is answered to HEAD too, without its body (RFC 9110 §9.3.2), so `Allow` names it.
  const get = methods.indexOf('GET');
  return get === -1 ? methods : [...methods.slice(0, get + 1), 'HEAD', ...methods.slice(get + 1)];
}
