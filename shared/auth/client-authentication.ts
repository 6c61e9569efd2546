import { logger } from '../observability/logger';
import type { ApiClient, ClientStore } from '../store/client-store';
import { epochSeconds, isLocked, lockedUntil } from './brute-force-brake';
import { DECOY_HASH, verifySecret } from './client-secrets';
import { OAuthError } from './oauth-error';

/**
 * Client authentication of the OAuth endpoints (token and introspection): HTTP Basic
 * (RFC 6749 §2.3.1), the secret checked against its scrypt hash, and the brute-force brake.
 *
 * Every refusal is the same 401 invalid_client — unknown client, wrong secret, revoked, locked —
 * and takes the same time (one scrypt, against a decoy hash when there is nothing to compare), so
 * an answer tells neither which client ids exist nor whether one is locked. Round trips: one
 * GetItem; a wrong secret adds one UpdateItem (the failure counter).
 */
export async function authenticateClient(
  authorization: string | undefined,
  store: ClientStore,
  now: number = epochSeconds(),
): Promise<ApiClient> {
  const credentials = basicCredentials(authorization);
  const client = await store.get(credentials.clientId);

  if (client && isLocked(client.authFailures, now)) {
    await verifySecret(credentials.secret, DECOY_HASH); // same time as a real check; the secret is not looked at
    logger.warn('client locked by the brute-force brake', { client_id: client.clientId, locked_until: lockedUntil(client.authFailures) });
    throw refused();
  }

  const secretMatches = await verifySecret(credentials.secret, client?.secretHash ?? DECOY_HASH);
  if (!client) throw refused();
  if (!secretMatches) {
    const failures = await store.countFailure(client.clientId, client.authFailures, now);
    if (isLocked(failures, now)) {
      logger.warn('client locked by the brute-force brake', { client_id: client.clientId, failures: failures?.count, locked_until: lockedUntil(failures) });
    }
    throw refused();
  }
  if (client.revokedAt) throw refused();
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
