import { beforeAll, describe, expect, it } from 'vitest';
import { BRAKE, inWindow, isLocked, lockedUntil, type AuthFailures } from '../../../shared/auth/brute-force-brake';
import { authenticateClient, basicCredentials } from '../../../shared/auth/client-authentication';
import { hashSecret } from '../../../shared/auth/client-secrets';
import { OAuthError } from '../../../shared/auth/oauth-error';
import { toApiError, type ApiError } from '../../../shared/http/errors';
import type { ApiClient, ClientStore } from '../../../shared/store/client-store';

const T0 = 1_700_000_000;

describe('the brake policy: 10 failures within 15 minutes lock for 15 minutes after the last', () => {
  const failures = (count: number, windowStart = T0, lastAt = T0 + 60): AuthFailures => ({ count, windowStart, lastAt });

  it('locks from the 10th failure on, until lastAt + 15 minutes', () => {
    expect(isLocked(undefined, T0)).toBe(false);
    expect(isLocked(failures(BRAKE.maxFailures - 1), T0 + 61)).toBe(false);
    expect(lockedUntil(failures(BRAKE.maxFailures))).toBe(T0 + 60 + BRAKE.lockSeconds);
    expect(isLocked(failures(BRAKE.maxFailures), T0 + 60 + BRAKE.lockSeconds - 1)).toBe(true);
    expect(isLocked(failures(BRAKE.maxFailures), T0 + 60 + BRAKE.lockSeconds)).toBe(false);
    expect(isLocked(failures(25), T0 + 61)).toBe(true);
  });

  it('counts a failure in the window until windowStart + 15 minutes, then opens a new one', () => {
    expect(inWindow(undefined, T0)).toBe(false);
    expect(inWindow(failures(3), T0 + BRAKE.windowSeconds - 1)).toBe(true);
    expect(inWindow(failures(3), T0 + BRAKE.windowSeconds)).toBe(false);
  });

  it('ends the window no later than the lock, so a client leaves the lock with a fresh count', () => {
    for (const lastAt of [T0, T0 + 1, T0 + BRAKE.windowSeconds - 1]) {
      const locked = failures(BRAKE.maxFailures, T0, lastAt);
      expect(inWindow(locked, lockedUntil(locked)!)).toBe(false);
    }
  });
});

/** The DynamoDB store's semantics in memory, with a log of the counting writes. */
class MemoryClientStore implements ClientStore {
  readonly clients = new Map<string, ApiClient>();
  readonly counted: string[] = [];
  async get(clientId: string) {
    const client = this.clients.get(clientId);
    return client && structuredClone(client);
  }
  async put(client: ApiClient) {
    this.clients.set(client.clientId, structuredClone(client));
  }
  async list() {
    return [...this.clients.values()];
  }
  async revoke(clientId: string, at: string) {
    const client = this.clients.get(clientId);
    if (client) client.revokedAt = at;
    return client !== undefined;
  }
  async countFailure(clientId: string, seen: AuthFailures | undefined, now: number) {
    const client = this.clients.get(clientId);
    if (!client) return undefined;
    this.counted.push(clientId);
    const current = client.authFailures;
    client.authFailures = inWindow(current ?? seen, now)
      ? { ...current!, count: current!.count + 1, lastAt: now }
      : { count: 1, windowStart: now, lastAt: now };
    return client.authFailures;
  }
  async clearFailures(clientId: string) {
    const client = this.clients.get(clientId);
    if (client) delete client.authFailures;
    return client !== undefined;
  }
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return toApiError(error);
}

describe('authenticateClient', () => {
  let store: MemoryClientStore;
  beforeAll(async () => {
    store = new MemoryClientStore();
    const secretHash = await hashSecret('right');
    for (const clientId of ['ok', 'locked', 'revoked', 'counted']) {
      await store.put({ clientId, name: clientId, secretHash, scopes: ['view_test:demo'], createdAt: '2024-01-01T00:00:00Z' });
    }
    await store.revoke('revoked', '2024-01-02T00:00:00Z');
    await store.put({ ...(await store.get('locked'))!, authFailures: { count: BRAKE.maxFailures, windowStart: T0, lastAt: T0 } });
  });

  it('answers the client for the right secret', async () => {
    expect((await authenticateClient(basic('ok', 'right'), store, T0)).clientId).toBe('ok');
  });

  it('refuses a wrong secret and counts it; unknown clients are refused and nothing is counted', async () => {
    const wrong = await refusal(authenticateClient(basic('counted', 'wrong'), store, T0));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_client' });
    expect((await store.get('counted'))?.authFailures).toEqual({ count: 1, windowStart: T0, lastAt: T0 });

    const unknown = await refusal(authenticateClient(basic('ghost', 'right'), store, T0));
    expect(unknown.body).toEqual(wrong.body);
    expect(store.counted).not.toContain('ghost');
  });

  it('refuses a locked client with the right secret, the same way, without counting', async () => {
    const before = store.counted.length;
    const locked = await refusal(authenticateClient(basic('locked', 'right'), store, T0 + 10));
    expect(locked.body).toMatchObject({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    await refusal(authenticateClient(basic('locked', 'wrong'), store, T0 + 10));
    expect(store.counted.length).toBe(before);
    // The lock is over BRAKE.lockSeconds after the last failure.
    expect((await authenticateClient(basic('locked', 'right'), store, T0 + BRAKE.lockSeconds)).clientId).toBe('locked');
  });

  it('locks on the 10th wrong secret', async () => {
    const secretHash = await hashSecret('right');
    await store.put({ clientId: 'target', name: 'target', secretHash, scopes: [], createdAt: '2024-01-01T00:00:00Z' });
    for (let attempt = 0; attempt < BRAKE.maxFailures - 1; attempt++) await refusal(authenticateClient(basic('target', 'guess'), store, T0 + attempt));
    expect((await authenticateClient(basic('target', 'right'), store, T0 + 20)).clientId).toBe('target');
    await refusal(authenticateClient(basic('target', 'guess'), store, T0 + 21));
    await refusal(authenticateClient(basic('target', 'right'), store, T0 + 22));
  });

  it('refuses a revoked client even with the right secret', async () => {
    expect((await refusal(authenticateClient(basic('revoked', 'right'), store, T0))).statusCode).toBe(401);
  });
});

describe('basicCredentials (RFC 6749 §2.3.1)', () => {
  it('decodes form-urlencoded id and secret', () => {
    expect(basicCredentials(basic('my%20client', 'p%3Ass+word'))).toEqual({ clientId: 'my client', secret: 'p:ss word' });
    expect(basicCredentials(`basic ${Buffer.from('a:b:c').toString('base64')}`)).toEqual({ clientId: 'a', secret: 'b:c' });
  });

  it('refuses anything else with 401 invalid_client', () => {
    for (const header of [undefined, '', 'Bearer x', 'Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, `Basic ${Buffer.from(':secret').toString('base64')}`, `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`]) {
      let error: unknown;
      try {
        basicCredentials(header);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, String(header)).toBeInstanceOf(OAuthError);
      expect(toApiError(error).statusCode).toBe(401);
    }
  });
});
