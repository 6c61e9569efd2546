import type middy from '@middy/core';
import routeKeys from '../contract/route-keys.json' with { type: 'json' };
import type { ApiEvent } from '../api-types';
import { FALLBACK_PATH, type RouteDeclaration } from '../declaration';
import { methodNotAllowed } from '../errors';
import { routeMatcher } from '../route-matcher';

/** The methods each path of the API serves (the route table, as `npm run openapi` writes it). */
const methodsByPath = new Map<string, string[]>();
for (const key of routeKeys) {
  const [method, path] = key.split(' ') as [string, string];
  methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), method]);
}
/** The most specific path of the API that a request path fits, whatever the method. */
const pathOf = routeMatcher([...methodsByPath.keys()].map((path) => ({ method: '*', path })));

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
      const match = pathOf('*', event.rawPath);
      if ('route' in match && match.route.path !== served.path) {
        throw methodNotAllowed(event.requestContext.http.method, event.rawPath, methodsByPath.get(match.route.path)!);
      }
    },
  };
}
