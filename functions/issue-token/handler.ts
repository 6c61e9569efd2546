import { signingKeys, tokenSettings } from '../../shared/auth/auth-services';
import { DECOY_HASH, verifySecret } from '../../shared/auth/client-secrets';
import { issueAccessToken } from '../../shared/auth/tokens';
import { endpoint } from '../../shared/http/endpoint';
import { oauthError } from '../../shared/http/errors';
import { clientStore } from '../../shared/store/stores';

/**
 * POST /oauth/token — OAuth 2.0 client credentials grant (RFC 6749 §4.4): the client
 * authenticates with HTTP Basic, asks for `grant_type=client_credentials` and optionally a
 * space-separated `scope` (form body or query), and gets a bearer token for at most the scopes
 * it was created with.
 */
export const handler = endpoint('issue-token', async ({ headers, body, query }) => {
  const form = readForm(headers['content-type'], body);
  const credentials = basicCredentials(headers.authorization);

  const grantType = form.get('grant_type');
  if (!grantType) throw oauthError(400, 'invalid_request', 'The grant_type parameter is missing.');
  if (grantType !== 'client_credentials') {
    throw oauthError(400, 'unsupported_grant_type', `The grant type '${grantType}' is not supported; use client_credentials.`);
  }

  const client = await clientStore().get(credentials.clientId);
  // Hash even for unknown clients so that timing does not tell which client ids exist.
  const secretMatches = await verifySecret(credentials.secret, client?.secretHash ?? DECOY_HASH);
  if (!client || !secretMatches || client.revokedAt) {
    throw oauthError(401, 'invalid_client', 'Client authentication failed.');
  }

  const requested = (form.get('scope') ?? query.string('scope'))?.split(' ').filter(Boolean);
  const beyondGrant = requested?.filter((scope) => !client.scopes.includes(scope)) ?? [];
  if (beyondGrant.length > 0) {
    throw oauthError(400, 'invalid_scope', `The client may not be granted: ${beyondGrant.join(' ')}.`);
  }
  const scopes = requested?.length ? [...new Set(requested)] : client.scopes;

  const { token, expiresIn } = await issueAccessToken(signingKeys(), tokenSettings(), { clientId: client.clientId, scopes });
  return {
    statusCode: 200,
    body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') },
    headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  };
});

function readForm(contentType: string | undefined, body: unknown): URLSearchParams {
  if (body !== undefined && body !== '' && !/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) {
    throw oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(typeof body === 'string' ? body : '');
}

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id) ":" urlencode(secret))`. */
function basicCredentials(authorization: string | undefined): { clientId: string; secret: string } {
  const encoded = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '')?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const separator = decoded.indexOf(':');
  if (separator <= 0) throw oauthError(401, 'invalid_client', 'Client authentication with HTTP Basic is required.');
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw oauthError(401, 'invalid_client', 'The client credentials are not correctly encoded.');
  }
}
