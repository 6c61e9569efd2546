import { endpoint } from '../../shared/http/endpoint';
import { methodNotAllowed, notFoundRoute } from '../../shared/http/errors';
import { matchRoute } from '../../shared/http/route-matcher';

/** Every request no route serves: 405 when the path exists for other methods, else 404. */
export const handler = endpoint('route-not-found', async ({ method, rawPath }) => {
  const match = matchRoute(method, rawPath);
  if ('allowedMethods' in match && match.allowedMethods.length > 0) {
    throw methodNotAllowed(method, rawPath, match.allowedMethods);
  }
  throw notFoundRoute(method, rawPath);
});
