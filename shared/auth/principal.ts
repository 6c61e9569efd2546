/**
 * What the authorizer hands to the functions. API Gateway caches it per Authorization header, so
 * it holds only what the token itself says — never a decision about a route or a project: the
 * scope check happens in every function against its own route and path (see authorize.ts).
 * Values are flat strings, as API Gateway authorizer contexts require.
 */
export type AuthorizerContext =
  | { authenticated: 'true'; clientId: string; scope: string; expiresAt: string }
  | { authenticated: 'false'; reason: string }
  /** A genuine token whose client could not be read (revocation undecided) until `retryAt` (epoch seconds), when this verdict leaves the cache. */
  | { authenticated: 'unknown'; retryAt: string };

export interface Principal {
  clientId: string;
  scopes: string[];
}

export function principalFrom(context: AuthorizerContext | undefined): Principal | undefined {
  if (context?.authenticated !== 'true') return undefined;
  return { clientId: context.clientId, scopes: context.scope.split(' ').filter(Boolean) };
}

/**
 * Whether the token a verdict was given for has expired (or says no expiry): API Gateway keeps an
 * authorizer's verdict for up to 300 s per Authorization header (the local gateway too), longer
 * than a token may have left, so the verdict alone would let an expired token through.
 */
export function tokenExpired(context: Extract<AuthorizerContext, { authenticated: 'true' }>, now = Date.now()): boolean {
  return !(Number(context.expiresAt) * 1000 > now);
}

/** `manage_test:demo` is granted by exactly that string: no prefixes, no patterns. */
export function grantedScopes(principal: Principal, anyOf: readonly string[], projectKey: string): string[] {
  const wanted = anyOf.map((scope) => `${scope}:${projectKey}`);
  return wanted.filter((scope) => principal.scopes.includes(scope));
}
