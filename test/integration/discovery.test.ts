import { describe, expect, it } from 'vitest';
import { baseUrl, call, devClient, tokenFor } from './api-client';
import { basic, introspect, requestToken } from './test-clients';

/** OAuth 2.0 discovery (RFC 8414): a client finds every endpoint from the issuer alone. */
describe('GET /.well-known/oauth-authorization-server', () => {
  it('names the issuer of the tokens, and the token, JWKS and introspection endpoints under it', async () => {
    const { status, headers, body } = await call('GET', '/.well-known/oauth-authorization-server');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    const issuer = baseUrl.replace('127.0.0.1', 'localhost');
    expect(body).toEqual({
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      jwks_uri: `${issuer}/oauth/jwks`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic'],
      response_types_supported: [],
      scopes_supported: ['manage_test:{projectKey}', 'view_test:{projectKey}', 'manage_products:{projectKey}', 'introspect_oauth_tokens:{projectKey}', 'manage_subscriptions:{projectKey}', 'view_subscriptions:{projectKey}'],
      service_documentation: `${issuer}/docs`,
    });

    // The issuer is the tokens' `iss` (RFC 8414 §3.3).
    const token = await tokenFor('view_test:demo');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims.iss).toBe(body.issuer);
  });

  it('works as a client would use it: every advertised endpoint answers at its path', async () => {
    const { body: metadata } = await call('GET', '/.well-known/oauth-authorization-server');
    const path = (url: string) => new URL(url).pathname;
    expect((await call('GET', path(metadata.jwks_uri))).body.keys.length).toBeGreaterThan(0);
    const authorization = basic(devClient.clientId, devClient.clientSecret);
    const token = await requestToken(authorization, 'grant_type=client_credentials&scope=view_test:demo');
    expect(path(metadata.token_endpoint)).toBe('/oauth/token');
    expect(token.status).toBe(200);
    expect(path(metadata.introspection_endpoint)).toBe('/oauth/introspect');
    expect((await introspect(authorization, `token=${token.body.access_token}`)).body).toMatchObject({ active: true, scope: 'view_test:demo' });
  });
});
