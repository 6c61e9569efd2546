import { parseCorsOrigins, preflightAnswer } from '../../shared/http/cors';
import { endpoint } from '../../shared/http/endpoint';
import { methodNotAllowed, notFoundRoute } from '../../shared/http/errors';
import { routeMatcher } from '../../shared/http/route-matcher';
import { routeNotFound } from './endpoint';
import routeKeys from '../../shared/http/contract/route-keys.json' with { type: 'json' };

/**
 * The API's routes, as `npm run openapi` derives them from the endpoint declarations (a test keeps
 * the file fresh): only methods and paths, so this bundle carries no other endpoint.
 */
const matchRoute = routeMatcher(
  routeKeys.map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    return { method, path };
  }),
);

/**
 * API Gateway sends the `$default` route every request no route serves, CORS preflights included
 * (an HTTP API answers them itself only where no `$default` route catches them first): with
 * `-c corsOrigins` (CORS_ORIGINS) they are answered here as its `corsPreflight` would.
 */
const corsOrigins = parseCorsOrigins(process.env.CORS_ORIGINS);

/** Every request no route serves: a CORS preflight's answer, 405 when the path exists for other methods, else 404. */
export const handler = endpoint(routeNotFound, async ({ method, rawPath, headers }) => {
  const preflight = preflightAnswer(corsOrigins, { method, headers });
  if (preflight) return preflight;
  const match = matchRoute(method, rawPath);
  if ('allowedMethods' in match && match.allowedMethods.length > 0) {
    throw methodNotAllowed(method, rawPath, match.allowedMethods);
  }
  throw notFoundRoute(method, rawPath);
});
