import { clientStore, publishedKeysVerifier } from '../../shared/composition-root';
import { callerSource } from '../../shared/auth/caller-source';
import { authenticateClient } from '../../shared/auth/client-authentication';
import { introspect } from '../../shared/auth/introspection';
import { endpoint } from '../../shared/http/endpoint';
import { oauthError } from '../../shared/http/errors';
import { readForm } from '../../shared/http/form';
import { introspectToken } from './endpoint';

/**
 * POST /oauth/introspect — token introspection (RFC 7662). The caller authenticates as a client
 * with HTTP Basic, exactly as at the token endpoint (same brute-force brake), and posts
 * `token=<access token>`; the answer is `{active: true, scope, exp, client_id, ...}` for a token
 * this service issued to a client that is not revoked, and `{active: false}` for anything else.
 * A client may introspect its own tokens, and those of projects it holds `introspect_oauth_tokens`
 * on (RFC 7662 §2.1; introspection.ts); any other token is `{active: false}`.
 */
export const handler = endpoint(introspectToken, async ({ headers, body, sourceIp }) => {
  const form = readForm(headers['content-type'], body);
  const caller = await authenticateClient(headers.authorization, clientStore(), callerSource(sourceIp, headers));

  const token = form.get('token');
  if (!token) throw oauthError(400, 'invalid_request', 'The token parameter is missing.');

  return { statusCode: 200, body: await introspect(token, publishedKeysVerifier(), clientStore(), caller), headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
});
