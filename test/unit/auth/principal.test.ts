import { describe, expect, it } from 'vitest';
import { grantedScopes, principalFrom, tokenExpired, type Principal } from '../../../shared/auth/principal.js';

describe('principalFrom', () => {
  it('is undefined without an authorizer context', () => {
    expect(principalFrom(undefined)).toBeUndefined();
  });

  it('is undefined when the authorizer did not authenticate the request', () => {
    expect(principalFrom({ authenticated: 'false', reason: 'expired' })).toBeUndefined();
  });

  it('reads the client id and the space-separated scopes', () => {
    expect(
      principalFrom({ authenticated: 'true', clientId: 'client-1', scope: 'manage_test:demo view_test:other', expiresAt: '1700000000' }),
    ).toEqual({ clientId: 'client-1', scopes: ['manage_test:demo', 'view_test:other'] });
  });

  it('drops empty scope entries from extra spaces', () => {
    expect(principalFrom({ authenticated: 'true', clientId: 'c', scope: '  view_test:demo   manage_test:demo ', expiresAt: '1' })?.scopes).toEqual([
      'view_test:demo',
      'manage_test:demo',
    ]);
  });

  it('gives a token without scopes an empty list', () => {
    expect(principalFrom({ authenticated: 'true', clientId: 'c', scope: '', expiresAt: '1' })).toEqual({ clientId: 'c', scopes: [] });
  });

  it('only trusts the exact string "true"', () => {
    const context = { authenticated: 'TRUE', clientId: 'c', scope: 'manage_test:demo', expiresAt: '1' };
    expect(principalFrom(context as never)).toBeUndefined();
  });
});

describe('grantedScopes', () => {
  const principal = (...scopes: string[]): Principal => ({ clientId: 'c', scopes });

  it('grants a scope held for exactly this project', () => {
    expect(grantedScopes(principal('manage_test:demo'), ['manage_test'], 'demo')).toEqual(['manage_test:demo']);
  });

  it('returns every wanted scope the principal holds, in the order asked', () => {
    expect(grantedScopes(principal('view_test:demo', 'manage_test:demo'), ['manage_test', 'view_test'], 'demo')).toEqual([
      'manage_test:demo',
      'view_test:demo',
    ]);
  });

  it('does not let a scope for another project through', () => {
    expect(grantedScopes(principal('manage_test:other'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('does not treat a longer project key as a match (manage_test:demox does not grant demo)', () => {
    expect(grantedScopes(principal('manage_test:demox'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('does not treat a shorter project key as a match (manage_test:dem does not grant demo)', () => {
    expect(grantedScopes(principal('manage_test:dem'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('does not accept a bare scope without a project', () => {
    expect(grantedScopes(principal('manage_test'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('does not accept wildcards or patterns', () => {
    expect(grantedScopes(principal('manage_test:*', 'manage_test:.*', 'manage_test:'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('is case-sensitive in both scope name and project key', () => {
    expect(grantedScopes(principal('MANAGE_TEST:demo', 'manage_test:Demo'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('does not let one scope name stand in for another', () => {
    expect(grantedScopes(principal('view_test:demo', 'manage_products:demo'), ['manage_test'], 'demo')).toEqual([]);
  });

  it('grants nothing when no scope is wanted', () => {
    expect(grantedScopes(principal('manage_test:demo'), [], 'demo')).toEqual([]);
  });
});

describe('tokenExpired', () => {
  const verdict = (expiresAt: string) => ({ authenticated: 'true' as const, clientId: 'c', scope: 'view_test:demo', expiresAt });

  it('is true from the second of exp on, false before it', () => {
    expect(tokenExpired(verdict('1700000000'), 1_700_000_000_000)).toBe(true);
    expect(tokenExpired(verdict('1700000000'), 1_699_999_999_999)).toBe(false);
  });

  it('fails closed: a verdict without a readable exp counts as expired', () => {
    for (const expiresAt of ['', 'soon', 'NaN']) expect(tokenExpired(verdict(expiresAt), 0), expiresAt).toBe(true);
  });
});
