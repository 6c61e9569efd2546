import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BRAKE, BrakedError, attemptWindow, brakeSource, type AttemptWindow } from '../../../shared/domain/auth/brute-force-brake';
import { authenticateClient, basicCredentials } from '../../../shared/auth/client-authentication';
import { DECOY_HASH, hashSecret, verifySecret } from '../../../shared/auth/client-secrets';
import { OAuthError } from '../../../shared/auth/oauth-error';
import { toApiError, type ApiError } from '../../../shared/http/errors';
import type { ApiClient, ClientStore } from '../../../shared/store/client-store';

const T0 = 1_700_000_000;

// verifySecret as is, watched: which hash each refusal is checked against (the decoy keeps the time).
vi.mock('../../../shared/auth/client-secrets', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../shared/auth/client-secrets')>();
  return { ...original, verifySecret: vi.fn(original.verifySecret) };
});

describe('the brake policy: 10 unsuccessful attempts per client and source in a fixed 15-minute window', () => {
  it('numbers windows of 15 minutes and says when each ends', () => {
    const window = attemptWindow(T0);
    expect(window.maxAttempts).toBe(BRAKE.maxAttempts);
    expect(window.endsAt - BRAKE.windowSeconds).toBeLessThanOrEqual(T0);
    expect(window.endsAt).toBeGreaterThan(T0);
    expect(attemptWindow(window.endsAt - 1).index).toBe(window.index);
    expect(attemptWindow(window.endsAt).index).toBe(window.index + 1);
  });

  it('keys sources by address; anything that is not an address is one shared source', () => {
    expect(brakeSource('203.0.113.7')).toBe('203.0.113.7');
    expect(brakeSource('2001:DB8::1')).toBe('2001:db8::1');
    for (const odd of [undefined, '', 'x', '1.2.3.4#CLIENT', 'a'.repeat(60)]) expect(brakeSource(odd)).toBe('unknown');
  });
});

/** The DynamoDB store's semantics in memory (a conditional counter per client, source and window), with a log of the secrets' fate. */
class MemoryClientStore implements ClientStore {
  readonly clients = new Map<string, ApiClient>();
  readonly counters = new Map<string, Set<string>>();
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
  async failuresIn(clientId: string, source: string, window: AttemptWindow) {
    return this.counters.get(`${clientId}|${source}|${window.index}`)?.size ?? 0;
  }
  async countFailure(clientId: string, source: string, window: AttemptWindow, attemptId: string) {
    const key = `${clientId}|${source}|${window.index}`;
    const ids = this.counters.get(key) ?? new Set<string>();
    if (ids.size >= window.maxAttempts && !ids.has(attemptId)) return false;
    this.counters.set(key, ids.add(attemptId));
    return true;
  }
  async clearAttempts(clientId: string) {
    for (const key of [...this.counters.keys()]) if (key.startsWith(`${clientId}|`)) this.counters.delete(key);
    return this.clients.has(clientId);
  }
  counted(clientId: string, source: string, now: number) {
    return this.counters.get(`${clientId}|${source}|${attemptWindow(now).index}`)?.size ?? 0;
  }
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const STRANGER = '198.51.100.66';
const OWNER = '203.0.113.10';

async function refusal(promise: Promise<unknown>, kind: typeof OAuthError | typeof BrakedError = OAuthError): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(kind);
  return toApiError(error);
}

/** 429 TooManyRequests, with the seconds left in the window. */
function expectBraked(answer: ApiError, now: number) {
  expect(answer.statusCode).toBe(429);
  expect(answer.body.errors[0]?.code).toBe('TooManyRequests');
  expect(answer.headers['Retry-After']).toBe(String(attemptWindow(now).endsAt - now));
}

describe('authenticateClient', () => {
  let store: MemoryClientStore;
  beforeAll(async () => {
    store = new MemoryClientStore();
    const secretHash = await hashSecret('right');
    for (const clientId of ['ok', 'revoked', 'counted', 'target', 'raced']) {
      await store.put({ clientId, name: clientId, secretHash, scopes: ['view_test:demo'], createdAt: '2024-01-01T00:00:00Z' });
    }
    await store.revoke('revoked', '2024-01-02T00:00:00Z');
  });

  it('answers the client for the right secret, and counts nothing', async () => {
    expect((await authenticateClient(basic('ok', 'right'), store, OWNER, T0)).clientId).toBe('ok');
    expect(store.counted('ok', OWNER, T0)).toBe(0);
  });

  it('refuses a wrong secret and counts it for its source; unknown clients are refused and nothing is counted', async () => {
    const wrong = await refusal(authenticateClient(basic('counted', 'wrong'), store, STRANGER, T0));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_client' });
    expect(store.counted('counted', STRANGER, T0)).toBe(1);
    expect(store.counted('counted', OWNER, T0)).toBe(0);

    const unknown = await refusal(authenticateClient(basic('ghost', 'right'), store, STRANGER, T0));
    expect(unknown.body).toEqual(wrong.body);
    expect([...store.counters.keys()].some((key) => key.startsWith('ghost|'))).toBe(false);
  });

  it('refuses an id no client can have (past 128 characters, or outside A-Z a-z 0-9 . _ ~ -) as an unknown one, without reading it', async () => {
    const unknown = await refusal(authenticateClient(basic('ghost', 'right'), store, STRANGER, T0));
    const reads = vi.spyOn(store, 'get');
    for (const clientId of ['c'.repeat(2100), 'c'.repeat(129), 'a@b', 'my%20client']) {
      vi.mocked(verifySecret).mockClear();
      const refused = await refusal(authenticateClient(basic(clientId, 'right'), store, STRANGER, T0));
      expect(refused.statusCode, clientId.slice(0, 10)).toBe(401);
      expect(refused.body, clientId.slice(0, 10)).toEqual(unknown.body);
      // One hash check against the decoy, as for an unknown id: the time tells nothing either.
      expect(vi.mocked(verifySecret).mock.calls, clientId.slice(0, 10)).toEqual([['right', DECOY_HASH]]);
    }
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    // 128 characters of the alphabet is a client id: looked up (here unknown).
    await refusal(authenticateClient(basic('c'.repeat(128), 'right'), store, STRANGER, T0));
  });

  it('brakes the source after 10 wrong secrets — 429 with Retry-After for any secret, the right one too — never the owner elsewhere', async () => {
    for (let attempt = 0; attempt < BRAKE.maxAttempts; attempt++) {
      expect((await refusal(authenticateClient(basic('target', 'guess'), store, STRANGER, T0 + attempt))).statusCode).toBe(401);
    }
    expectBraked(await refusal(authenticateClient(basic('target', 'guess'), store, STRANGER, T0 + 20), BrakedError), T0 + 20);
    expectBraked(await refusal(authenticateClient(basic('target', 'right'), store, STRANGER, T0 + 21), BrakedError), T0 + 21);
    expect(store.counted('target', STRANGER, T0)).toBe(BRAKE.maxAttempts); // refusals while braked are not counted
    // The owner, from its own address, is not affected by any number of failures elsewhere.
    expect((await authenticateClient(basic('target', 'right'), store, OWNER, T0 + 22)).clientId).toBe('target');
    // The next window starts afresh for the stranger too.
    const next = attemptWindow(T0).endsAt;
    expect((await authenticateClient(basic('target', 'right'), store, STRANGER, next)).clientId).toBe('target');
  });

  it('of 30 parallel attempts, at most 10 wrong secrets are answered as wrong and no right one is refused as invalid_client', async () => {
    const attempts = Array.from({ length: 30 }, (_, index) => authenticateClient(basic('raced', index % 10 === 9 ? 'right' : 'guess'), store, STRANGER, T0));
    const outcomes = await Promise.allSettled(attempts);
    const toldWrong = outcomes.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof OAuthError);
    expect(toldWrong.length).toBeLessThanOrEqual(BRAKE.maxAttempts);
    expect(store.counted('raced', STRANGER, T0)).toBe(toldWrong.length);
    outcomes.forEach((outcome, index) => {
      if (index % 10 === 9) expect(outcome.status === 'fulfilled' || outcome.reason instanceof BrakedError, String(index)).toBe(true);
    });
  });

  it('authenticates a client whose record has the scheme used before (scrypt), and brakes it like any other', async () => {
    // scrypt (N=16384, r=8, p=1) of 'legacy secret ✓': records written before the fast scheme.
    const secretHash = 'scrypt$16384$8$1$bGVnYWN5LXNhbHQtMTZieQ$M9ZSkAvUT9KzzAYpwgNjvZWsdn2YcxSljD0l_tyAhBc';
    await store.put({ clientId: 'legacy', name: 'legacy', secretHash, scopes: ['view_test:demo'], createdAt: '2024-01-01T00:00:00Z' });
    expect((await authenticateClient(basic('legacy', 'legacy secret ✓'), store, OWNER, T0)).clientId).toBe('legacy');
    for (let attempt = 0; attempt < BRAKE.maxAttempts; attempt++) await refusal(authenticateClient(basic('legacy', 'guess'), store, STRANGER, T0));
    expectBraked(await refusal(authenticateClient(basic('legacy', 'legacy secret ✓'), store, STRANGER, T0), BrakedError), T0);
    expect(store.counted('legacy', STRANGER, T0)).toBe(BRAKE.maxAttempts);
  });

  it('refuses a revoked client even with the right secret', async () => {
    expect((await refusal(authenticateClient(basic('revoked', 'right'), store, OWNER, T0))).statusCode).toBe(401);
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
