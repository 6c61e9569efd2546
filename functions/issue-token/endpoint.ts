import * as z from 'zod/mini';
import { PUBLIC } from '../../shared/http/contract/access';
import { formBody, json } from '../../shared/http/contract/content';
import { named } from '../../shared/http/contract/schema-names';
import { defineEndpoint, route } from '../../shared/http/declaration';

const TokenRequest = named(
  'TokenRequest',
  z.object({
    grant_type: z.literal('client_credentials'),
    scope: z.optional(z.string()).check(z.meta({ description: 'Space-separated scopes, e.g. `manage_test:demo view_test:demo`; none asked: all of the client\'s.' })),
  }),
  'Form body of POST /oauth/token.',
);
const TokenResponse = named(
  'TokenResponse',
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().check(z.int(), z.meta({ description: 'Seconds until the token expires' })),
    scope: z.string().check(z.meta({ description: 'The granted scopes, space-separated' })),
  }),
);

/** POST /oauth/token: the OAuth 2.0 client credentials grant (same origin as the API). */
export const issueToken = defineEndpoint({
  name: 'issue-token',
  permissions: ['clients:read', 'clients:countAttempts', 'signingKey:sign', 'signingKey:publicKey'],
  routes: [
    route({
      method: 'POST',
      path: '/oauth/token',
      access: PUBLIC,
      body: 'form',
      rows: [],
      summary: 'Client credentials grant: exchange client id and secret for a bearer token.',
      pathParameters: {},
      tag: 'OAuth',
      description:
        'OAuth 2.0 client credentials (RFC 6749 §4.4). Authenticate with HTTP Basic (client id and secret); `scope` may also come in the query. A client is granted at most the scopes it was created with.',
      clientAuthentication: 'basic',
      request: formBody(TokenRequest),
      responses: { 200: { description: 'A bearer token.', content: json(TokenResponse), headers: { 'Cache-Control': '`no-store`: tokens and claims are never cached.' } } },
      errors: ['OAuthBadRequest', 'InvalidClient'],
    }),
  ],
});
