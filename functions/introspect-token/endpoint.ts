import { formBody, json, PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** POST /oauth/introspect: token introspection (RFC 7662) for API clients. */
export const introspectToken = defineEndpoint({
  name: 'introspect-token',
  // Public keys come from the JWKS endpoint, as the authorizer's (shared/composition-root.ts): no KMS.
  permissions: ['clients:read', 'clients:countAttempts'],
  routes: [
    // Public at the gateway: the caller authenticates as a client with HTTP Basic, like at /oauth/token.
    route({
      method: 'POST',
      path: '/oauth/introspect',
      access: PUBLIC,
      body: 'form',
      summary: 'Token introspection (RFC 7662): whether a token is active, and its claims.',
      pathParameters: {},
      tag: 'OAuth',
      description: 'Token introspection (RFC 7662). Authenticate with HTTP Basic as an API client.',
      clientAuthentication: 'basic',
      request: { ...formBody('IntrospectionRequest'), required: true },
      responses: {
        200: {
          description: 'Whether the token is active, and its claims.',
          content: json('IntrospectionResponse'),
          headers: { 'Cache-Control': '`no-store`: tokens and claims are never cached.' },
        },
      },
      errors: ['OAuthBadRequest', 'InvalidClient'],
    }),
  ],
});
