import type middy from '@middy/core';
import type { ApiEvent } from '../api-types';
import { apiPathOf } from '../api-paths';
import { FALLBACK_PATH, type RouteDeclaration } from '../declaration';
import { methodNotAllowed } from '../errors';

/**
 * API Gateway serves a request by the most specific route of its method: a path that is literal
 * for other methods (`/{projectKey}/resource/images` takes POST) reaches a parameter route for this
 * one (GET `/{projectKey}/resource/{id}`, id `images`), which would answer it as a resource that
 * does not exist, or as an update. Such a request is answered as the `$default` route answers a
 * method no route of the path serves: 405 with the path's methods. Runs before the token's scopes
 * are checked, as `$default` checks none.
 */
export function literalPaths(routeOf: (event: ApiEvent) => RouteDeclaration): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      const served = routeOf(event);
      if (served.path === FALLBACK_PATH) return; // `$default` answers these itself (and preflights first)
      const path = apiPathOf(event.rawPath);
      if (path && path.path !== served.path) throw methodNotAllowed(event.requestContext.http.method, event.rawPath, path.methods);
    },
  };
}
