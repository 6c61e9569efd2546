import { signingKeys } from '../../shared/composition-root';
import { endpoint } from '../../shared/http/endpoint';
import { getJwks } from './endpoint';

/** GET /oauth/jwks — the public keys that verify access tokens. */
export const handler = endpoint(getJwks, async () => ({ statusCode: 200, body: await signingKeys().publicJwks(), headers: { 'Cache-Control': 'public, max-age=300' } }));
