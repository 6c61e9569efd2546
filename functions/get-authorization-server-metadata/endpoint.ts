import * as z from 'zod/mini';
import type { AuthorizationServerMetadata } from '../../shared/auth/authorization-server-metadata';
import { PUBLIC } from '../../shared/http/contract/access';
import { json } from '../../shared/http/contract/content';
import { named } from '../../shared/http/contract/schema-names';
import { defineEndpoint, route } from '../../shared/http/declaration';

const AuthorizationServerMetadataSchema = named(
  'AuthorizationServerMetadata',
  z.object({
    issuer: z.string(),
    token_endpoint: z.string(),
    jwks_uri: z.string(),
    introspection_endpoint: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    introspection_endpoint_auth_methods_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    service_documentation: z.string(),
  }),
  'RFC 8414 metadata. Scopes are listed as templates (`manage_test:{projectKey}`), granted per project (`manage_test:demo`).',
);
// What this documents must be exactly what shared/auth/authorization-server-metadata.ts answers.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _metadataMatches: Same<z.infer<typeof AuthorizationServerMetadataSchema>, AuthorizationServerMetadata> = true;

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
      rows: [],
      summary: 'OAuth 2.0 authorization server metadata (RFC 8414): issuer, endpoints, grant types, scopes.',
      pathParameters: {},
      tag: 'OAuth',
      responses: {
        200: { description: 'Where the token, JWKS and introspection endpoints are, and what they support.', content: json(AuthorizationServerMetadataSchema) },
      },
      errors: [],
    }),
  ],
});
