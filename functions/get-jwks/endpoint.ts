import { json, PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

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
      summary: 'Public keys (JWKS) that verify the access tokens.',
      pathParameters: {},
      tag: 'OAuth',
      responses: { 200: { description: 'The JSON Web Key Set.', content: json('Jwks') } },
      errors: [],
    }),
  ],
});
