import * as z from 'zod/mini';
import type { Introspection } from '../../shared/auth/introspection';
import { PUBLIC } from '../../shared/http/contract/access';
import { formBody, json } from '../../shared/http/contract/content';
import { named } from '../../shared/http/contract/schema-names';
import { defineEndpoint, route } from '../../shared/http/declaration';

const IntrospectionRequest = named('IntrospectionRequest', z.object({ token: z.string() }), 'Form body of POST /oauth/introspect.');
const IntrospectionResponse = named(
  'IntrospectionResponse',
  z.union([
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
  ]),
  'RFC 7662 §2.2: `{active: false}` for any token that is not active, with no reason.',
);
// shared/auth/introspection.ts types the answer in TypeScript; both must say the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _introspectionMatches: Same<z.infer<typeof IntrospectionResponse>, Introspection> = true;

/** POST /oauth/introspect: token introspection (RFC 7662) for API clients. */
export const introspectToken = defineEndpoint({
  name: 'introspect-token',
  permissions: ['clients:read', 'clients:countAttempts', 'signingKey:publicKey'],
  routes: [
    // Public at the gateway: the caller authenticates as a client with HTTP Basic, like at /oauth/token.
    route({
      method: 'POST',
      path: '/oauth/introspect',
      access: PUBLIC,
      body: 'form',
      rows: [],
      summary: 'Token introspection (RFC 7662): whether a token is active, and its claims.',
      pathParameters: {},
      tag: 'OAuth',
      description: 'Token introspection (RFC 7662). Authenticate with HTTP Basic as an API client.',
      clientAuthentication: 'basic',
      request: { ...formBody(IntrospectionRequest), required: true },
      responses: {
        200: {
          description: 'Whether the token is active, and its claims.',
          content: json(IntrospectionResponse),
          headers: { 'Cache-Control': '`no-store`: tokens and claims are never cached.' },
        },
      },
      errors: ['OAuthBadRequest', 'InvalidClient'],
    }),
  ],
});
