import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScopeError, isCanonicalScopeClaim, isProjectScope, parseClientScopes } from '../../../shared/auth/scopes';

const scopeToken = fc.stringMatching(/^[\x21\x23-\x5B\x5D-\x7E]{1,20}$/);

describe('isCanonicalScopeClaim: the scope claim exactly as the service issues it', () => {
  it('accepts scope tokens joined by single spaces, and the empty string', () => {
    for (const claim of ['manage_test:demo', 'manage_test:demo view_test:demo', 'manage_test:*', 'MANAGE_TEST:demo', 'a,b', '']) {
      expect(isCanonicalScopeClaim(claim), claim).toBe(true);
    }
    fc.assert(fc.property(fc.array(scopeToken, { minLength: 1, maxLength: 5 }), (scopes) => isCanonicalScopeClaim(scopes.join(' '))));
  });

  it('refuses non-strings, and strings with stray whitespace or characters outside RFC 6749 scope-token', () => {
    const refused: unknown[] = [
      ['manage_test:demo'],
      { scope: 'manage_test:demo' },
      42,
      null,
      undefined,
      true,
      'manage_test:demo ',
      ' manage_test:demo',
      'manage_test:demo  view_test:demo',
      'manage_test:demo\tview_test:demo',
      'manage_test:demo\nview_test:demo',
      'manage_test:"demo"',
      'manage_test:de\\mo',
      'manage_test:démo',
      ' ',
    ];
    for (const claim of refused) expect(isCanonicalScopeClaim(claim), JSON.stringify(claim)).toBe(false);
    fc.assert(
      fc.property(fc.array(scopeToken, { minLength: 1, maxLength: 5 }), fc.constantFrom(' ', '\t', '\n', '\u00a0'), fc.boolean(), (scopes, pad, leading) =>
        !isCanonicalScopeClaim(leading ? `${pad}${scopes.join(' ')}` : `${scopes.join(' ')}${pad}`),
      ),
    );
  });
});

describe('parseClientScopes: the scopes a client is created with', () => {
  it('takes full scopes, separated by spaces or commas, without duplicates', () => {
    expect(parseClientScopes('manage_test:demo, view_test:demo  manage_test:demo')).toEqual(['manage_test:demo', 'view_test:demo']);
    expect(parseClientScopes('manage_products:shop-1_a')).toEqual(['manage_products:shop-1_a']);
  });

  it('expands bare names with --project, and keeps full scopes of other projects as given', () => {
    expect(parseClientScopes('manage_test view_test', 'demo')).toEqual(['manage_test:demo', 'view_test:demo']);
    expect(parseClientScopes('manage_products view_test:other', 'demo')).toEqual(['manage_products:demo', 'view_test:other']);
  });

  it('refuses anything outside <manage_test|view_test|manage_products>:<projectKey>', () => {
    const refused = ['', '   ', 'manage_test', 'admin:demo', 'manage_test:*', 'manage_test:d', 'MANAGE_TEST:demo', 'manage_test:demo:x', 'manage_test:de mo', `manage_test:${'a'.repeat(257)}`, 'manage_test:demo%20'];
    for (const text of refused) expect(() => parseClientScopes(text), text).toThrow(ScopeError);
    expect(() => parseClientScopes('manage_test', 'bad key')).toThrow(ScopeError);
    expect(() => parseClientScopes('manage_test', '*')).toThrow(ScopeError);
  });

  it('only ever yields scopes that isProjectScope accepts', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          return parseClientScopes(text).every(isProjectScope);
        } catch (error) {
          return error instanceof ScopeError;
        }
      }),
    );
  });
});
