import { formBody, json, PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

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
      summary: 'Client credentials grant: exchange client id and secret for a bearer token.',
      pathParameters: {},
      tag: 'OAuth',
      description:
        'OAuth 2.0 client credentials (RFC 6749 §4.4). Authenticate with HTTP Basic (client id and secret); `scope` may also come in the query. A client is granted at most the scopes it was created with.',
      clientAuthentication: 'basic',
      request: formBody('TokenRequest'),
      responses: { 200: { description: 'A bearer token.', content: json('TokenResponse'), headers: { 'Cache-Control': '`no-store`: tokens and claims are never cached.' } } },
      errors: ['OAuthBadRequest', 'InvalidClient'],
    }),
  ],
});
