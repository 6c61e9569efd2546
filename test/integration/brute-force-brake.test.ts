import { describe, expect, it } from 'vitest';
import { BRAKE } from '../../shared/auth/brute-force-brake';
import { basic, createTestClient, introspect, localStore, requestToken, rewindFailures, type TestClient } from './test-clients';

/**
 * The brute-force brake of client authentication, against the local stack: 10 wrong secrets
 * within 15 minutes lock the client for 15 minutes. Each test uses its own client, so the
 * development client of the other suites is never locked.
 */

const wrong = (client: TestClient) => requestToken(basic(client.clientId, `${client.secret}-wrong`));
const right = (client: TestClient) => requestToken(basic(client.clientId, client.secret));
const failures = async (client: TestClient) => (await localStore().get(client.clientId))?.authFailures;

async function failTimes(client: TestClient, times: number) {
  for (let attempt = 0; attempt < times; attempt++) expect((await wrong(client)).status).toBe(401);
}

const INVALID_CLIENT = {
  statusCode: 401,
  message: 'Client authentication failed.',
  errors: [{ code: 'invalid_client', message: 'Client authentication failed.' }],
  error: 'invalid_client',
  error_description: 'Client authentication failed.',
};

describe('brute-force brake on POST /oauth/token', () => {
  it('counts wrong secrets; below the limit the right secret still works', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes(client, BRAKE.maxFailures - 1);
    expect(await failures(client)).toMatchObject({ count: BRAKE.maxFailures - 1 });
    expect((await right(client)).status).toBe(200);
  });

  it('after 10 wrong secrets the client is locked: the right secret gets the same 401 invalid_client', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    expect((await right(client)).status).toBe(200);
    await failTimes(client, BRAKE.maxFailures);

    const locked = await right(client);
    expect(locked.status).toBe(401);
    expect(locked.body).toEqual(INVALID_CLIENT);
    // Indistinguishable from a wrong secret or an unknown client.
    expect((await wrong(client)).body).toEqual(locked.body);
    expect((await requestToken(basic('no-such-client', 'x'))).body).toEqual(locked.body);
    // Attempts while locked are not counted, so the lock ends on time.
    expect((await failures(client))?.count).toBe(BRAKE.maxFailures);
  });

  it('the lock holds at the introspection endpoint too (same client authentication)', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    const token = (await right(client)).body.access_token as string;
    expect((await introspect(basic(client.clientId, client.secret), `token=${token}`)).body.active).toBe(true);
    // Wrong secrets at the introspection endpoint count as well.
    for (let attempt = 0; attempt < BRAKE.maxFailures; attempt++) {
      expect((await introspect(basic(client.clientId, 'guess'), `token=${token}`)).status).toBe(401);
    }
    expect((await introspect(basic(client.clientId, client.secret), `token=${token}`)).body).toEqual(INVALID_CLIENT);
    expect((await right(client)).status).toBe(401);
  });

  it('the lock ends 15 minutes after the last failure, and the next failure opens a new window', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes(client, BRAKE.maxFailures);
    expect((await right(client)).status).toBe(401);

    await rewindFailures(client.clientId, BRAKE.lockSeconds - 30);
    expect((await right(client)).status).toBe(401); // 30 s to go
    await rewindFailures(client.clientId, 31);
    expect((await right(client)).status).toBe(200);

    expect((await wrong(client)).status).toBe(401);
    expect((await failures(client))?.count).toBe(1);
  });

  it('failures older than the 15-minute window do not add up', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes(client, BRAKE.maxFailures - 1);
    await rewindFailures(client.clientId, BRAKE.windowSeconds);
    await failTimes(client, 1);
    expect((await failures(client))?.count).toBe(1);
    expect((await right(client)).status).toBe(200);
  });

  it('concurrent wrong secrets all count (atomic ADD), and lock the client', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    const answers = await Promise.all(Array.from({ length: BRAKE.maxFailures }, () => wrong(client)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(BRAKE.maxFailures).fill(401));
    expect((await failures(client))?.count).toBe(BRAKE.maxFailures);
    expect((await right(client)).status).toBe(401);
  });

  it('an operator can unlock a client (the CLI\'s unlock)', async () => {
    const client = await createTestClient(['view_test:demo'], 'brake');
    await failTimes(client, BRAKE.maxFailures);
    expect((await right(client)).status).toBe(401);
    expect(await localStore().clearFailures(client.clientId)).toBe(true);
    expect((await right(client)).status).toBe(200);
  });

  it('unknown client ids leave nothing behind in the table', async () => {
    for (let attempt = 0; attempt < 3; attempt++) expect((await requestToken(basic('brake-ghost', 'x'))).status).toBe(401);
    expect(await localStore().get('brake-ghost')).toBeUndefined();
  });
});
