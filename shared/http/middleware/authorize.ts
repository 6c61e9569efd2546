import type middy from '@middy/core';
import { grantedScopes, principalFrom } from '../../auth/principal';
import { insufficientScope, invalidToken } from '../errors';
import type { ApiEvent } from '../endpoint';
import { routeKey, type Route } from '../routes';

/**
 * Enforces the route table's access rule for the route being served: a verified token (the
 * authorizer's verdict) holding one of the route's scopes bound to the path's projectKey.
 */
export function authorize(served: Route[]): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      const route = served.find((candidate) => routeKey(candidate) === event.routeKey) ?? served[0];
      if (!route || route.access.kind === 'public') return;

      const context = event.requestContext.authorizer?.lambda;
      const principal = principalFrom(context);
      if (!principal) throw invalidToken(context?.authenticated === 'false' ? context.reason : undefined);

      const projectKey = event.pathParameters?.projectKey ?? '';
      if (grantedScopes(principal, route.access.anyOf, projectKey).length === 0) {
        throw insufficientScope(route.access.anyOf.map((scope) => `${scope}:${projectKey}`));
      }
    },
  };
}
