import { json, PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** GET /.well-known/oauth-authorization-server: OAuth 2.0 discovery (RFC 8414). */
export const getAuthorizationServerMetadata = defineEndpoint({
  name: 'get-authorization-server-metadata',
  permissions: [],
  routes: [
    route({
      method: 'GET',
      path: '/.well-known/oauth-authorization-server',
      access: PUBLIC,
      body: 'none',
      summary: 'OAuth 2.0 authorization server metadata (RFC 8414): issuer, endpoints, grant types, scopes.',
      pathParameters: {},
      tag: 'OAuth',
      responses: {
        200: { description: 'Where the token, JWKS and introspection endpoints are, and what they support.', content: json('AuthorizationServerMetadata') },
      },
      errors: [],
    }),
  ],
});
