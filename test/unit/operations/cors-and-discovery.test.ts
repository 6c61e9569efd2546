import { describe, expect, it } from 'vitest';
import { withCors, uploadCorsXml } from '../../../local/cors';
import type { GatewayRequest } from '../../../local/lambda-events';
import { authorizationServerMetadata } from '../../../shared/auth/authorization-server-metadata';

const answered = async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' });
const request = (method: string, headers: GatewayRequest['headers']): GatewayRequest => ({ method, url: '/demo/resource', headers, body: Buffer.alloc(0) });
const preflight = (origin: string) => request('OPTIONS', { origin, 'access-control-request-method': 'POST' });

describe('the local gateway\'s CORS (as API Gateway\'s corsPreflight)', () => {
  it('changes nothing without origins: a preflight goes to the routes like any request', async () => {
    expect(await withCors(answered, [])(preflight('https://a.example'))).toEqual(await answered());
  });

  it('with `*`, allows any origin with `*`', async () => {
    const cors = withCors(answered, ['*']);
    expect((await cors(preflight('https://a.example'))).headers).toMatchObject({ 'access-control-allow-origin': '*' });
    expect((await cors(request('GET', { origin: 'https://b.example' }))).headers).toMatchObject({ 'access-control-allow-origin': '*', 'content-type': 'application/json' });
  });

  it('answers a preflight of another origin with 204 and no allow headers; an OPTIONS that is no preflight goes to the routes', async () => {
    const cors = withCors(answered, ['https://a.example']);
    const refused = await cors(preflight('https://b.example'));
    expect(refused.statusCode).toBe(204);
    expect(refused.headers).not.toHaveProperty('access-control-allow-origin');
    expect(await cors(request('OPTIONS', { origin: 'https://a.example' }))).toMatchObject({ statusCode: 200 });
    expect((await cors(request('GET', {}))).headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('gives the S3 emulator the bucket rule of the stack: PUT from the origins, with the signed headers', () => {
    expect(uploadCorsXml(['https://a.example'])).toBe(
      '<CORSConfiguration><CORSRule><AllowedOrigin>https://a.example</AllowedOrigin><AllowedMethod>PUT</AllowedMethod>' +
        '<AllowedHeader>content-type</AllowedHeader><AllowedHeader>cache-control</AllowedHeader><AllowedHeader>if-none-match</AllowedHeader>' +
        '<ExposeHeader>etag</ExposeHeader><MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule></CORSConfiguration>',
    );
  });
});

describe('authorization server metadata (RFC 8414)', () => {
  it('puts every endpoint under the issuer, which it keeps exactly as the tokens carry it', () => {
    const metadata = authorizationServerMetadata('https://api.europe-west1.gcp.example.com');
    expect(metadata).toMatchObject({
      issuer: 'https://api.europe-west1.gcp.example.com',
      token_endpoint: 'https://api.europe-west1.gcp.example.com/oauth/token',
      jwks_uri: 'https://api.europe-west1.gcp.example.com/oauth/jwks',
      introspection_endpoint: 'https://api.europe-west1.gcp.example.com/oauth/introspect',
    });
    expect(authorizationServerMetadata('https://x.example/').token_endpoint).toBe('https://x.example/oauth/token');
  });
});
