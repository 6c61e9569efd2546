import * as z from 'zod/mini';
import type { PublicJwk } from '../../shared/auth/signing-keys';
import { PUBLIC } from '../../shared/http/contract/access';
import { json } from '../../shared/http/contract/content';
import { named } from '../../shared/http/contract/schema-names';
import { defineEndpoint, route } from '../../shared/http/declaration';

const Jwks = named(
  'Jwks',
  z.object({
    keys: z.array(
      z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig') }),
    ),
  }),
  'The public keys that verify access tokens (RS256); `kid` is the RFC 7638 thumbprint.',
);
// What this documents must be a JWKS of shared/auth/signing-keys.ts (whose JsonWebKey fields are all optional).
const _jwksFits: [z.infer<typeof Jwks>] extends [{ keys: PublicJwk[] }] ? true : false = true;

/** GET /oauth/jwks: the public keys that verify access tokens. */
export const getJwks = defineEndpoint({
  name: 'get-jwks',
  permissions: ['signingKey:publicKey'],
  routes: [
    route({
      method: 'GET',
      path: '/oauth/jwks',
      access: PUBLIC,
      body: 'none',
      rows: [],
      summary: 'Public keys (JWKS) that verify the access tokens.',
      pathParameters: {},
      tag: 'OAuth',
      responses: { 200: { description: 'The JSON Web Key Set.', content: json(Jwks) } },
      errors: [],
    }),
  ],
});
