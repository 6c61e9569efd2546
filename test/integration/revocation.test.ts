import { describe, expect, it } from 'vitest';
import { call } from './api-client';
import { basic, createTestClient, localStore, requestToken } from './test-clients';

describe('revoking a client', () => {
  it('stops its tokens already issued, not only new ones', async () => {
    const client = await createTestClient(['view_test:demo'], 'revoked');
    const issued = await requestToken(basic(client.clientId, client.secret));
    expect(issued.status).toBe(200);
    const token: string = issued.body.access_token;

    await localStore().revoke(client.clientId, new Date().toISOString());

    // A verdict for this token was never cached, so the authorizer reads the client now.
    const refused = await call('GET', '/demo/resource/key=anything', { token });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ errors: [{ code: 'invalid_token', message: expect.stringContaining('revoked') }] });
    expect((await requestToken(basic(client.clientId, client.secret))).status).toBe(401);
  });
});
