import { describe, expect, it } from 'vitest';
import type { ApiAnswer } from './api-client';
import { BRAKE, attemptWindow, epochSeconds } from '../../shared/domain/auth/brute-force-brake';
import {
  attemptsCounted,
  basic,
  createTestClient,
  introspect,
  localStore,
  requestToken,
  requestTokenFrom,
  type TestClient,
} from './test-clients';

/**
 * The brute-force brake of client authentication, against the local stack: at most 10
 * unsuccessful attempts per client AND source address in a 15-minute window; then every attempt
 * from that source, right or wrong, is answered 429 with Retry-After until the window ends. Strangers call from
 * other loopback addresses (127.0.0.x): the local gateway passes the socket's address on as
 * requestContext.http.sourceIp, as API Gateway does. Each test uses its own client.
 */

const OWNER = '127.0.0.1'; // requestToken (fetch) comes from here
const wrongFrom = (source: string, client: TestClient) => requestTokenFrom(source, basic(client.clientId, `${client.secret}-wrong`));
const rightFrom = (source: string, client: TestClient) => requestTokenFrom(source, basic(client.clientId, client.secret));

async function failTimes(source: string, client: TestClient, times: number) {
  for (let attempt = 0; attempt < times; attempt++) expect((await wrongFrom(source, client)).status).toBe(401);
}

/** 429 TooManyRequests with the seconds left in the window: what a braked source gets, for any secret. */
function expectBraked(answer: ApiAnswer) {
  expect(answer.status).toBe(429);
  expect(answer.body.errors[0].code).toBe('TooManyRequests');
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(BRAKE.windowSeconds);
}

const INVALID_CLIENT = {
  statusCode: 401,
  message: 'Client authentication failed.',
  errors: [{ code: 'invalid_client', message: 'Client authentication failed.' }],
  error: 'invalid_client',
  error_description: 'Client authentication failed.',
};

describe('brute-force brake on POST /oauth/token', () => {
  it('no stranger locks out the owner: 20 wrong secrets from 127.0.0.2 (10 told wrong, 10 braked), then the right one from 127.0.0.1 → 200', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes('127.0.0.2', client, BRAKE.maxAttempts);
    // The stranger's source is braked: the right secret gets the same 429 there as a wrong one, never 401.
    for (let attempt = 0; attempt < 10; attempt++) expectBraked(await wrongFrom('127.0.0.2', client));
    expectBraked(await rightFrom('127.0.0.2', client));
    expect(await attemptsCounted(client.clientId, '127.0.0.2')).toBe(BRAKE.maxAttempts); // refusals while braked are not counted
    // The owner, from its own address, gets its token.
    expect((await requestToken(basic(client.clientId, client.secret))).status).toBe(200);
    expect((await rightFrom('127.0.0.3', client)).status).toBe(200);
  });

  it('below the limit the right secret works from the same source, and counts nothing', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes('127.0.0.4', client, BRAKE.maxAttempts - 1);
    expect(await attemptsCounted(client.clientId, '127.0.0.4')).toBe(BRAKE.maxAttempts - 1);
    expect((await rightFrom('127.0.0.4', client)).status).toBe(200);
    expect(await attemptsCounted(client.clientId, '127.0.0.4')).toBe(BRAKE.maxAttempts - 1);
    // Successes never add up: the owner may ask for tokens as often as the rate limits allow.
    for (let attempt = 0; attempt < BRAKE.maxAttempts + 2; attempt++) expect((await rightFrom('127.0.0.5', client)).status).toBe(200);
    expect(await attemptsCounted(client.clientId, '127.0.0.5')).toBe(0);
  });

  it('the brake is atomic: of 60 parallel attempts (the right secret last) at most the limit are told wrong, the rest braked', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    const attempts = Array.from({ length: 60 }, (_, index) => (index === 59 ? rightFrom('127.0.0.6', client) : wrongFrom('127.0.0.6', client)));
    const answers = await Promise.all(attempts);
    const toldWrong = answers.filter((answer) => answer.status === 401);
    expect(toldWrong.length).toBeLessThanOrEqual(BRAKE.maxAttempts);
    for (const answer of toldWrong) expect(answer.body).toEqual(INVALID_CLIENT);
    // Each failure told wrong is counted; the conditional increment never passes the limit.
    expect(await attemptsCounted(client.clientId, '127.0.0.6')).toBe(toldWrong.length);
    // The right secret got its token, or was braked like the rest: never 401.
    expect([200, 429]).toContain(answers[59]!.status);
    for (const answer of answers.slice(0, 59).filter((answer) => answer.status !== 401)) expectBraked(answer);
    await failTimes('127.0.0.6', client, BRAKE.maxAttempts - toldWrong.length);
    expectBraked(await rightFrom('127.0.0.6', client));
    expect((await requestToken(basic(client.clientId, client.secret))).status).toBe(200);
  });

  it('30 parallel requests with the right secret from one address all get tokens', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    const answers = await Promise.all(Array.from({ length: 30 }, () => rightFrom('127.0.0.11', client)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    expect(await attemptsCounted(client.clientId, '127.0.0.11')).toBe(0);
  });

  it('the brake holds at the introspection endpoint too (same client authentication, same source)', async () => {
    // A client introspects its own tokens.
    const client = await createTestClient(['view_test:demo'], 'brake');
    const token = (await requestToken(basic(client.clientId, client.secret))).body.access_token as string;
    expect((await introspect(basic(client.clientId, client.secret), `token=${token}`)).body.active).toBe(true);
    for (let attempt = 0; attempt < BRAKE.maxAttempts; attempt++) {
      expect((await introspect(basic(client.clientId, 'guess'), `token=${token}`)).status).toBe(401);
    }
    expectBraked(await introspect(basic(client.clientId, client.secret), `token=${token}`));
    expectBraked(await requestToken(basic(client.clientId, client.secret)));
    // … from that source only.
    expect((await rightFrom('127.0.0.7', client)).status).toBe(200);
    expect(await localStore().clearAttempts(client.clientId)).toBe(true);
  });

  it('a failure sent twice (the SDK resending after a lost answer) is counted once, also at the limit', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    const store = localStore();
    const window = attemptWindow(epochSeconds());
    expect(await store.countFailure(client.clientId, '127.0.0.10', window, 'twice')).toBe(true);
    expect(await store.countFailure(client.clientId, '127.0.0.10', window, 'twice')).toBe(true);
    expect(await store.failuresIn(client.clientId, '127.0.0.10', window)).toBe(1);
    for (let attempt = 1; attempt < BRAKE.maxAttempts; attempt++) expect(await store.countFailure(client.clientId, '127.0.0.10', window, `other-${attempt}`)).toBe(true);
    expect(await store.countFailure(client.clientId, '127.0.0.10', window, 'one-more')).toBe(false);
    // At the limit, the resend of a counted failure is still that failure, not one beyond the limit.
    expect(await store.countFailure(client.clientId, '127.0.0.10', window, 'twice')).toBe(true);
    expect(await store.failuresIn(client.clientId, '127.0.0.10', window)).toBe(BRAKE.maxAttempts);
    expect(await store.clearAttempts(client.clientId)).toBe(true);
  });

  it('counters are per fixed window: a full window in the past does not brake the current one', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    const store = localStore();
    const past = attemptWindow(epochSeconds() - BRAKE.windowSeconds);
    for (let attempt = 0; attempt < BRAKE.maxAttempts; attempt++) expect(await store.countFailure(client.clientId, '127.0.0.8', past, `a${attempt}`)).toBe(true);
    expect(await store.countFailure(client.clientId, '127.0.0.8', past, 'one-more')).toBe(false);
    expect((await rightFrom('127.0.0.8', client)).status).toBe(200);
  });

  it('an operator can unlock a client for every source (the CLI\'s unlock)', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes('127.0.0.9', client, BRAKE.maxAttempts);
    expectBraked(await rightFrom('127.0.0.9', client));
    expect(await localStore().clearAttempts(client.clientId)).toBe(true);
    expect(await attemptsCounted(client.clientId, '127.0.0.9')).toBe(0);
    expect((await rightFrom('127.0.0.9', client)).status).toBe(200);
  });

  it('unknown client ids leave nothing behind in the table', async () => {
    for (let attempt = 0; attempt < 3; attempt++) expect((await requestToken(basic('brake-ghost', 'x'))).status).toBe(401);
    expect(await localStore().get('brake-ghost')).toBeUndefined();
    expect(await attemptsCounted('brake-ghost', OWNER)).toBe(0);
  });
});
