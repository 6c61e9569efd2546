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

import { MAX_UPLOAD_BYTES } from '../domain/images/image-upload';
import { InterfaceObjectTestType } from '../domain/resource';
import type { ParameterSpecs } from './parameters';

/** How the gateway hands the body to the function. */
export type BodyKind = 'none' | 'json' | 'form' | 'binary' | 'text';

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
  /** Declared query parameters, checked by type before the handler runs. */
  query?: ParameterSpecs;
}

const READ: Access = { kind: 'project', anyOf: ['manage_test', 'view_test'] };
const MANAGE: Access = { kind: 'project', anyOf: ['manage_test'] };
const MANAGE_PRODUCTS: Access = { kind: 'project', anyOf: ['manage_products'] };
const PUBLIC: Access = { kind: 'public' };

/** The paged query of the commercetools family (rows 1, 5 and 12); `var.<name>` joins them. */
const PAGED_QUERY: ParameterSpecs = {
  where: { type: 'string', repeatable: true, description: 'Query predicate; several are AND-ed' },
  sort: { type: 'string', repeatable: true, description: '`<field> asc|desc`, applied in order' },
  limit: { type: 'integer', min: 0, max: 500, description: 'Page size (default 20)' },
  offset: { type: 'integer', min: 0, max: 10_000, description: 'Results to skip (default 0)' },
  withTotal: { type: 'boolean', description: 'Count all matches (default true)' },
  expand: { type: 'string', repeatable: true, description: 'Accepted; the resource has no references' },
};

/** Row 1's declared parameters, checked by type (they do not narrow the result). */
const RESOURCE_QUERY: ParameterSpecs = {
  ...PAGED_QUERY,
  stringParameter: { type: 'string' },
  floatParameter: { type: 'number' },
  integerParameter: { type: 'integer' },
  withMarkdownDescription: { type: 'number' },
  objectParameter: { type: 'json' },
  arrayOfString: { type: 'string', repeatable: true },
  arrayOfStringWithDescription: { type: 'string', repeatable: true },
  unionParameter: { type: ['number', 'date-time', 'json'], schema: InterfaceObjectTestType },
};
const { unionParameter: _notOnHead, ...EXISTS_QUERY } = RESOURCE_QUERY;

const SEARCH_QUERY: ParameterSpecs = {
  fuzzy: { type: 'boolean' },
  fuzzyLevel: { type: 'integer', min: 0 },
  staged: { type: 'boolean' },
  filter: { type: 'string', repeatable: true },
  'filter.query': { type: 'string', repeatable: true },
  'filter.facets': { type: 'string', repeatable: true },
  facet: { type: 'string', repeatable: true },
  sort: PAGED_QUERY.sort!,
  limit: PAGED_QUERY.limit!,
  offset: PAGED_QUERY.offset!,
  withTotal: PAGED_QUERY.withTotal!,
};

/** Row 13's parameters: which variant gets the image, its file name, staged or published too. */
const IMAGE_TARGET_QUERY: ParameterSpecs = {
  filename: { type: 'string' },
  variant: { type: 'integer', min: 1 },
  sku: { type: 'string' },
  staged: { type: 'boolean' },
};

/** The two-step upload declares the image it will send; S3 takes nothing else. */
const START_UPLOAD_QUERY: ParameterSpecs = {
  ...IMAGE_TARGET_QUERY,
  contentType: { type: 'string', required: true, description: '`image/jpeg`, `image/png` or `image/gif` (another is 415)' },
  size: { type: 'integer', min: 1, max: MAX_UPLOAD_BYTES, required: true, description: 'The image\'s length in bytes' },
};

export const routes = [
  // OAuth 2.0 token service (same origin as the API).
  { method: 'POST', path: '/oauth/token', handler: 'issue-token', access: PUBLIC, body: 'form', rows: [], summary: 'Client credentials grant: exchange client id and secret for a bearer token.' },
  { method: 'GET', path: '/oauth/jwks', handler: 'get-jwks', access: PUBLIC, body: 'none', rows: [], summary: 'Public keys (JWKS) that verify the access tokens.' },
  // Public at the gateway: the caller authenticates as a client with HTTP Basic, like at /oauth/token.
  { method: 'POST', path: '/oauth/introspect', handler: 'introspect-token', access: PUBLIC, body: 'form', rows: [], summary: 'Token introspection (RFC 7662): whether a token is active, and its claims.' },
  { method: 'GET', path: '/.well-known/oauth-authorization-server', handler: 'get-authorization-server-metadata', access: PUBLIC, body: 'none', rows: [], summary: 'OAuth 2.0 authorization server metadata (RFC 8414): issuer, endpoints, grant types, scopes.' },

  // The resource collection.
  { method: 'GET', path: '/{projectKey}/resource', handler: 'query-resources', access: READ, body: 'none', rows: [1], summary: 'Query resources: where, sort, paging, and the declared typed parameters.', query: RESOURCE_QUERY },
  { method: 'HEAD', path: '/{projectKey}/resource', handler: 'check-resources-exist', access: READ, body: 'none', rows: [5], summary: 'Whether at least one resource matches: 200 or 404, no body.', query: EXISTS_QUERY },
  { method: 'GET', path: '/{projectKey}/resource/sorted-query-parameters', handler: 'query-sorted-resources', access: READ, body: 'none', rows: [12], summary: 'Query resources with where, sort, limit, offset, withTotal, expand and var.* parameters.', query: PAGED_QUERY },
  { method: 'GET', path: '/{projectKey}/resource/searchApiPattern', handler: 'search-resources', access: READ, body: 'none', rows: [4], summary: 'Full-text search with fuzzy matching, filters and facets.', query: SEARCH_QUERY },
  { method: 'POST', path: '/{projectKey}/resource', handler: 'create-resource', access: MANAGE, body: 'json', rows: [6], summary: 'Create a resource; a draft whose key exists updates that resource in place.' },
  { method: 'PATCH', path: '/{projectKey}/resource', handler: 'overwrite-resource', access: MANAGE, body: 'json', rows: [7], summary: 'Overwrite the resource named by the draft key.' },
  { method: 'PUT', path: '/{projectKey}/resource', handler: 'put-resource', access: MANAGE, body: 'json', rows: [8], summary: 'Create a resource, or overwrite the one named by the draft key.' },

  // One resource. API Gateway cannot route the partial segment `key={key}`, so row 3 shares
  // the `{id}` route and the handler dispatches on the `key=` prefix.
  { method: 'GET', path: '/{projectKey}/resource/{id}', handler: 'get-resource', access: READ, body: 'none', rows: [2, 3], summary: 'Read a resource by id, or by key with the segment `key=<key>`.', query: { optionalQueryParameter: { type: 'string' }, secondOptionalQueryParameter: { type: 'string' } } },
  { method: 'POST', path: '/{projectKey}/resource/{id}', handler: 'update-resource', access: MANAGE, body: 'json', rows: [10], summary: 'Apply update actions, in order, at the expected version.' },
  { method: 'DELETE', path: '/{projectKey}/resource/{id}', handler: 'delete-resource', access: MANAGE, body: 'none', rows: [11], summary: 'Delete a resource (optionally at an expected version).', query: { version: { type: 'integer', min: 1 } } },

  // The artificially complex path: API Gateway routes the whole `uri-parameter-one=<x>` segment
  // and the handler checks the prefix.
  { method: 'POST', path: '/{projectKey}/resource/artificially-complex/path/{uriParameterOne}/{uriParameterTwo}', handler: 'post-complex-path', access: MANAGE, body: 'json', rows: [9], summary: 'Store an OutOfOrderPropertiesTestType under (uriParameterOne, uriParameterTwo); answer the named resource\'s objectTypeProperty.', query: { queryParameterOne: { type: 'number' }, queryParameterTwo: { type: 'string' } } },

  // Images of product variants, stored in S3: in the body (row 13), or, larger, in two steps through a
  // presigned S3 URL (beyond the interface, so no row). The literal `images` beats `{id}`; the upload
  // paths have more segments than `{id}`'s, so they never compete with it.
  { method: 'POST', path: '/{projectKey}/resource/images', handler: 'upload-image', access: MANAGE_PRODUCTS, body: 'binary', rows: [13], summary: 'Upload a JPEG, PNG or GIF image to the variant chosen by sku or variant.', query: IMAGE_TARGET_QUERY },
  { method: 'POST', path: '/{projectKey}/resource/images/uploads', handler: 'start-image-upload', access: MANAGE_PRODUCTS, body: 'none', rows: [], summary: `Start an upload of a JPEG, PNG or GIF image of up to ${MAX_UPLOAD_BYTES} bytes: answers a presigned S3 URL to PUT it to.`, query: START_UPLOAD_QUERY },
  { method: 'POST', path: '/{projectKey}/resource/images/uploads/{uploadId}', handler: 'complete-image-upload', access: MANAGE_PRODUCTS, body: 'none', rows: [], summary: 'Complete an upload: check the uploaded image and attach it to its variant.' },

  // Extension actions: forwarded to the handler the project bound them to.
  { method: 'POST', path: '/{projectKey}/resource/namespace-action', handler: 'call-extension-action', access: MANAGE, body: 'text', rows: [14], summary: 'Call the extension action namespace-action (POST).' },
  { method: 'GET', path: '/{projectKey}/resource/namespace-action', handler: 'call-extension-action', access: READ, body: 'none', rows: [15], summary: 'Call the extension action namespace-action (GET).' },
  { method: 'GET', path: '/{projectKey}/resource/namespace-action-with-example', handler: 'call-extension-action', access: READ, body: 'none', rows: [16], summary: 'Call the extension action namespace-action-with-example; bound by default to its declared cart example.' },
  { method: 'PUT', path: '/{projectKey}/resource/json-serializable-primitive-type', handler: 'put-json-value', access: MANAGE, body: 'json', rows: [17], summary: 'Store any JSON value for the project and answer it.' },

  // The API reference (no token): the OpenAPI document, and Swagger UI rendering it from the
  // service's own copies of its two files (literal paths, so `/docs/<x>` never shadows a project's routes).
  { method: 'GET', path: '/openapi.json', handler: 'get-openapi', access: PUBLIC, body: 'none', rows: [], summary: 'The OpenAPI 3.1 document of this API.' },
  { method: 'GET', path: '/docs', handler: 'get-api-docs', access: PUBLIC, body: 'none', rows: [], summary: 'The API reference page (Swagger UI).' },
  { method: 'GET', path: '/docs/swagger-ui-bundle.js', handler: 'get-api-docs', access: PUBLIC, body: 'none', rows: [], summary: 'Script of the API reference page.' },
  { method: 'GET', path: '/docs/swagger-ui.css', handler: 'get-api-docs', access: PUBLIC, body: 'none', rows: [], summary: 'Style sheet of the API reference page.' },
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
