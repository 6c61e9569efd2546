import { PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, FALLBACK_PATH, route } from '../../shared/http/declaration';

/**
 * What answers when no route matches: API Gateway's `$default` route, and the local gateway's
 * fallback. It answers 404 `NotFound`, or 405 `MethodNotAllowed` when the path exists. Not an
 * operation of the document, which names its errors in the introduction.
 */
export const routeNotFound = defineEndpoint({
  name: 'route-not-found',
  permissions: [],
  routes: [
    route({
      method: 'ANY',
      path: FALLBACK_PATH,
      access: PUBLIC,
      body: 'none',
      summary: 'Unknown routes: 404 NotFound or 405 MethodNotAllowed.',
      pathParameters: {},
      responses: {},
      errors: ['RouteNotFound', 'MethodNotAllowed'],
    }),
  ],
});
