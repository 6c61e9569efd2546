import { apiPathOf } from '../../shared/http/api-paths';
import { parseCorsOrigins, preflightAnswer } from '../../shared/http/cors';
import { endpoint } from '../../shared/http/endpoint';
import { methodNotAllowed, notFoundRoute } from '../../shared/http/errors';
import { routeNotFound } from './endpoint';

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
  // The path's methods, as every other function answers a method its path does not serve (literal-paths.ts).
  const path = apiPathOf(rawPath);
  if (path) throw methodNotAllowed(method, rawPath, path.methods);
  throw notFoundRoute(method, rawPath);
});
