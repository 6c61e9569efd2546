import * as z from 'zod/mini';
import type { AuthorizationServerMetadata } from '../../auth/authorization-server-metadata';
import type { Introspection } from '../../auth/introspection';
import type { PublicJwk } from '../../auth/signing-keys';
import type { DocumentSchema } from './document-schema';

/** The OAuth endpoints' bodies and answers; what shared/auth answers must fit them (checked when they compile). */

const Jwks = z.object({
  keys: z.array(
    z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig') }),
  ),
});
// What this documents must be a JWKS of shared/auth/signing-keys.ts (whose JsonWebKey fields are all optional).
const _jwksFits: [z.infer<typeof Jwks>] extends [{ keys: PublicJwk[] }] ? true : false = true;

const IntrospectionResponse = z.union([
  z.object({ active: z.literal(false) }),
  z.object({
    active: z.literal(true),
    scope: z.string(),
    client_id: z.string(),
    token_type: z.literal('Bearer'),
    exp: z.number().check(z.int()),
    iat: z.optional(z.number().check(z.int())),
    nbf: z.optional(z.number().check(z.int())),
    sub: z.optional(z.string()),
    aud: z.optional(z.union([z.string(), z.array(z.string())])),
    iss: z.optional(z.string()),
    jti: z.optional(z.string()),
  }),
]);

const AuthorizationServerMetadataSchema = z.object({
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
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// shared/auth types the answers in TypeScript; both must say the same.
const _introspectionMatches: Same<z.infer<typeof IntrospectionResponse>, Introspection> = true;
const _metadataMatches: Same<z.infer<typeof AuthorizationServerMetadataSchema>, AuthorizationServerMetadata> = true;

export const oauthSchemas = {
  TokenRequest: {
    schema: z.object({
      grant_type: z.literal('client_credentials'),
      scope: z
        .optional(z.string())
        .check(z.meta({ description: "Space-separated scopes, e.g. `manage_test:demo view_test:demo`; none asked: all of the client's." })),
    }),
    description: 'Form body of POST /oauth/token.',
  },
  TokenResponse: {
    schema: z.object({
      access_token: z.string(),
      token_type: z.literal('Bearer'),
      expires_in: z.number().check(z.int(), z.meta({ description: 'Seconds until the token expires' })),
      scope: z.string().check(z.meta({ description: 'The granted scopes, space-separated' })),
    }),
  },
  IntrospectionRequest: { schema: z.object({ token: z.string() }), description: 'Form body of POST /oauth/introspect.' },
  IntrospectionResponse: {
    schema: IntrospectionResponse,
    description: 'RFC 7662 §2.2: `{active: false}` for any token that is not active, with no reason.',
  },
  Jwks: { schema: Jwks, description: 'The public keys that verify access tokens (RS256); `kid` is the RFC 7638 thumbprint.' },
  AuthorizationServerMetadata: {
    schema: AuthorizationServerMetadataSchema,
    description: 'RFC 8414 metadata. Scopes are listed as templates (`manage_test:{projectKey}`), granted per project (`manage_test:demo`).',
  },
} satisfies Record<string, DocumentSchema>;
