import { clientStore, signingKeys, tokenSettings } from '../../shared/composition-root';
import { callerSource } from '../../shared/auth/caller-source';
import { authenticateClient } from '../../shared/auth/client-authentication';
import { issueAccessToken, MAX_TOKEN_LENGTH } from '../../shared/auth/tokens';
import { endpoint } from '../../shared/http/endpoint';
import { oauthError } from '../../shared/http/errors';
import { readForm } from '../../shared/http/form';
import { issueToken } from './endpoint';

/**
 * POST /oauth/token — OAuth 2.0 client credentials grant (RFC 6749 §4.4): the client
 * authenticates with HTTP Basic, asks for `grant_type=client_credentials` and optionally a
 * space-separated `scope` (form body or query), and gets a bearer token for at most the scopes
 * it was created with.
 */
export const handler = endpoint(issueToken, async ({ headers, body, query, sourceIp }) => {
  const form = readForm(headers['content-type'], body);
  // Basic credentials, the secret's hash, revocation and the brute-force brake (client-authentication.ts).
  const client = await authenticateClient(headers.authorization, clientStore(), callerSource(sourceIp, headers));

  const grantType = form.get('grant_type');
  if (!grantType) throw oauthError(400, 'invalid_request', 'The grant_type parameter is missing.');
  if (grantType !== 'client_credentials') {
    throw oauthError(400, 'unsupported_grant_type', `The grant type '${grantType}' is not supported; use client_credentials.`);
  }

  const requested = (form.get('scope') ?? query.string('scope'))?.split(' ').filter(Boolean);
  const beyondGrant = requested?.filter((scope) => !client.scopes.includes(scope)) ?? [];
  if (beyondGrant.length > 0) {
    throw oauthError(400, 'invalid_scope', `The client may not be granted: ${beyondGrant.join(' ')}.`);
  }
  const scopes = requested?.length ? [...new Set(requested)] : client.scopes;

  const { token, expiresIn } = await issueAccessToken(signingKeys(), tokenSettings(), { clientId: client.clientId, scopes });
  // A token the API would refuse as too long is not issued: the client learns why, and what to ask.
  if (token.length > MAX_TOKEN_LENGTH) {
    throw oauthError(
      400,
      'invalid_scope',
      `A token for these ${scopes.length} scopes would be ${token.length} characters, over the ${MAX_TOKEN_LENGTH} the API reads: ask for fewer with the scope parameter.`,
    );
  }
  return {
    statusCode: 200,
    body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') },
    headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  };
});
