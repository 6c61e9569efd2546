import { signingKeys } from '../../shared/composition-root';
import { endpoint } from '../../shared/http/endpoint';

/** GET /oauth/jwks — the public keys that verify access tokens. */
export const handler = endpoint('get-jwks', async () => ({
  statusCode: 200,
  body: await signingKeys().publicJwks(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
