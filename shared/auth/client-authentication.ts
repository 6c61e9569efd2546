import { randomBytes } from 'node:crypto';
import { logger } from '../observability/logger';
import type { ApiClient, ClientStore } from '../store/client-store';
import { attemptWindow, brakeSource, BrakedError, epochSeconds } from '../domain/auth/brute-force-brake';
import { DECOY_HASH, isClientId, verifySecret } from './client-secrets';
import { OAuthError } from './oauth-error';

/**
 * Client authentication of the OAuth endpoints (token and introspection): HTTP Basic
 * (RFC 6749 §2.3.1), the secret checked against its stored hash (client-secrets.ts), then the
 * brute-force brake (domain/auth/brute-force-brake.ts): a wrong secret is counted for its source
 * address, a right one only reads the count.
 *
 * Refusals are 401 invalid_client — unknown client, wrong secret, revoked — after one hash check
 * each (against a decoy when there is nothing to compare), so an answer does not tell which
 * secrets are close; a braked source gets 429 with Retry-After for any secret. Round trips: one
 * GetItem, then one GetItem (a right secret) or one UpdateItem (a wrong one).
 */
export async function authenticateClient(
  authorization: string | undefined,
  store: ClientStore,
  sourceIp: string | undefined,
  now: number = epochSeconds(),
): Promise<ApiClient> {
  const credentials = basicCredentials(authorization);
  // An id no client can have is unknown without asking the store (which may refuse it outright).
  const client = isClientId(credentials.clientId) ? await store.get(credentials.clientId) : undefined;
  const right = await verifySecret(credentials.secret, client?.secretHash ?? DECOY_HASH);
  if (!client) throw refused(); // unknown ids: nothing to brake, nothing written

  const source = brakeSource(sourceIp);
  const window = attemptWindow(now);
  const admitted = right
    ? (await store.failuresIn(client.clientId, source, window)) < window.maxAttempts
    : await store.countFailure(client.clientId, source, window, randomBytes(9).toString('base64url'));
  if (!admitted) {
    logger.warn('client braked for this source', { client_id: client.clientId, source, until: window.endsAt });
    throw new BrakedError(window.endsAt - now);
  }
  if (!right || client.revokedAt) throw refused();
  return client;
}

const refused = () => new OAuthError('invalid_client', 'Client authentication failed.');

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id) ":" urlencode(secret))`. */
export function basicCredentials(authorization: string | undefined): { clientId: string; secret: string } {
  const encoded = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '')?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const separator = decoded.indexOf(':');
  if (separator <= 0) throw new OAuthError('invalid_client', 'Client authentication with HTTP Basic is required.');
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw new OAuthError('invalid_client', 'The client credentials are not correctly encoded.');
  }
}
