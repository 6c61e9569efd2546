import type middy from '@middy/core';
import { grantedScopes, principalFrom, tokenExpired } from '../../auth/principal';
import type { ApiEvent } from '../api-types';
import type { RouteDeclaration } from '../declaration';
import { insufficientScope, invalidToken, revocationUndecided } from '../errors';

/**
 * Enforces the declared access rule of the route being served: a public route lets anyone in; a
 * project route wants a verified token (the authorizer's verdict) that has not expired since,
 * holding one of its scopes bound to the path's projectKey. Any other rule, or a route that cannot be resolved, is refused.
 */
export function authorize(routeOf: (event: ApiEvent) => RouteDeclaration): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      const { access } = routeOf(event);
      if (access.kind === 'public') return;
      if (access.kind !== 'project' || access.anyOf.length === 0) throw new Error(`The route ${event.routeKey} has no enforceable access rule.`);

      const context = event.requestContext.authorizer?.lambda;
      if (context?.authenticated === 'unknown') throw revocationUndecided(Number(context.retryAt) - Math.floor(Date.now() / 1000));
      const principal = principalFrom(context);
      if (!principal) throw invalidToken(context?.authenticated === 'false' ? context.reason : undefined);
      if (context?.authenticated === 'true' && tokenExpired(context)) throw invalidToken('The access token expired.');

      const projectKey = event.pathParameters?.projectKey ?? '';
      if (grantedScopes(principal, access.anyOf, projectKey).length === 0) {
        throw insufficientScope(access.anyOf.map((scope) => `${scope}:${projectKey}`));
      }
    },
  };
}
