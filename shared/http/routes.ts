/**
 * The route table: the single source of truth for what the API serves. The CDK stack makes one
 * API Gateway route and one Lambda function per entry; the local gateway routes with the same
 * entries; every handler looks its own entry up to enforce the scopes declared here.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** Project-bound scopes: a token holds `<scope>:<projectKey>`. */
export type ProjectScope = 'manage_test' | 'view_test' | 'manage_products';

export type Access =
  /** No token: the OAuth endpoints and the not-found fallback. */
  | { kind: 'public' }
  /** A token holding any one of these scopes for the path's projectKey. */
  | { kind: 'project'; anyOf: readonly ProjectScope[] };

/** How the gateway hands the body to the function. */
export type BodyKind = 'none' | 'json' | 'form' | 'binary';

export interface Route {
  method: HttpMethod;
  /** API Gateway path: literal segments and whole-segment `{parameters}`. */
  path: string;
  /** Folder under `functions/` whose `handler.ts` serves the route. */
  handler: string;
  access: Access;
  body: BodyKind;
  /** Rows of the interface this route serves. */
  rows: readonly number[];
  summary: string;
}

const READ: Access = { kind: 'project', anyOf: ['manage_test', 'view_test'] };
const MANAGE: Access = { kind: 'project', anyOf: ['manage_test'] };
const PUBLIC: Access = { kind: 'public' };

export const routes = [
  // OAuth 2.0 token service (same origin as the API).
  { method: 'POST', path: '/oauth/token', handler: 'issue-token', access: PUBLIC, body: 'form', rows: [], summary: 'Client credentials grant: exchange client id and secret for a bearer token.' },
  { method: 'GET', path: '/oauth/jwks', handler: 'get-jwks', access: PUBLIC, body: 'none', rows: [], summary: 'Public keys (JWKS) that verify the access tokens.' },

  // The resource collection.
  { method: 'POST', path: '/{projectKey}/resource', handler: 'create-resource', access: MANAGE, body: 'json', rows: [6], summary: 'Create a resource; a draft whose key exists updates that resource in place.' },
  { method: 'PATCH', path: '/{projectKey}/resource', handler: 'overwrite-resource', access: MANAGE, body: 'json', rows: [7], summary: 'Overwrite the resource named by the draft key.' },
  { method: 'PUT', path: '/{projectKey}/resource', handler: 'put-resource', access: MANAGE, body: 'json', rows: [8], summary: 'Create a resource, or overwrite the one named by the draft key.' },

  // One resource. API Gateway cannot route the partial segment `key={key}`, so row 3 shares
  // the `{id}` route and the handler dispatches on the `key=` prefix.
  { method: 'GET', path: '/{projectKey}/resource/{id}', handler: 'get-resource', access: READ, body: 'none', rows: [2, 3], summary: 'Read a resource by id, or by key with the segment `key=<key>`.' },
  { method: 'POST', path: '/{projectKey}/resource/{id}', handler: 'update-resource', access: MANAGE, body: 'json', rows: [10], summary: 'Apply update actions, in order, at the expected version.' },
  { method: 'DELETE', path: '/{projectKey}/resource/{id}', handler: 'delete-resource', access: MANAGE, body: 'none', rows: [11], summary: 'Delete a resource (optionally at an expected version).' },
] as const satisfies readonly Route[];

export type RouteDefinition = (typeof routes)[number];
export type HandlerName = RouteDefinition['handler'];

/** The API Gateway route key, e.g. `GET /{projectKey}/resource/{id}`. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

export function routesOf(handler: string): Route[] {
  return ([...routes, fallbackRoute] as readonly Route[]).filter((route) => route.handler === handler);
}

/**
 * What answers when no route matches: API Gateway's `$default` route, and the local gateway's
 * fallback. It answers 404 `NotFound`, or 405 `MethodNotAllowed` when the path exists.
 */
export const fallbackRoute: Omit<Route, 'method'> & { method: 'ANY' } = {
  method: 'ANY',
  path: '$default',
  handler: 'route-not-found',
  access: PUBLIC,
  body: 'none',
  rows: [],
  summary: 'Unknown routes: 404 NotFound or 405 MethodNotAllowed.',
};
