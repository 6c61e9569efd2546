import { randomBytes } from 'node:crypto';
import { logger } from '../observability/logger';
import type { ApiClient, ClientStore } from '../store/client-store';
import { attemptWindow, brakeSource, epochSeconds } from '../domain/auth/brute-force-brake';
import { DECOY_HASH, decoyLike, isClientId, verifySecret } from './client-secrets';
import { OAuthError } from './oauth-error';

/**
 * Client authentication of the OAuth endpoints (token and introspection): HTTP Basic
 * (RFC 6749 §2.3.1), the secret checked against its stored hash (client-secrets.ts), and the
 * brute-force brake (domain/auth/brute-force-brake.ts): an attempt of an existing client is
 * reserved for its source address before the secret is checked, and given back when the secret
 * is right.
 *
 * Every refusal is the same 401 invalid_client — unknown client, wrong secret, revoked, braked —
 * and takes the same time (one hash check; against a decoy of the same scheme when there is
 * nothing to compare), so an answer tells neither which secrets are close nor whether the brake
 * holds. Round trips: one GetItem and one UpdateItem (the reservation); a right secret adds one
 * UpdateItem (the release).
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
  if (!client) {
    await verifySecret(credentials.secret, DECOY_HASH); // unknown ids: nothing to brake, nothing written
    throw refused();
  }

  const source = brakeSource(sourceIp);
  const window = attemptWindow(now);
  const attemptId = randomBytes(9).toString('base64url');
  if (!(await store.reserveAttempt(client.clientId, source, window, attemptId))) {
    await verifySecret(credentials.secret, decoyLike(client.secretHash)); // same time as a real check; the secret is not looked at
    logger.warn('client braked for this source', { client_id: client.clientId, source, until: window.endsAt });
    throw refused();
  }
  if (!(await verifySecret(credentials.secret, client.secretHash))) throw refused(); // the reservation stays: a failure
  await store.releaseAttempt(client.clientId, source, window, attemptId);
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
