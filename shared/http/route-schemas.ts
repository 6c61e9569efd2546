import * as z from 'zod';
import type { Introspection } from '../auth/introspection';
import type { PublicJwk } from '../auth/signing-keys';
import { ResourceNotFoundError } from '../domain/errors';
import { JsonValueSchema } from '../domain/extensions/binding';
import { CART_EXAMPLE } from '../domain/extensions/default-bindings';
import { IMAGE_CONTENT_TYPES, MAX_IMAGE_BYTES } from '../domain/images/image-file';
import { ImageUploadTicket, MAX_UPLOAD_BYTES, UPLOAD_TTL_SECONDS } from '../domain/images/image-upload';
import { Image, Variant } from '../domain/images/variant';
import { OutOfOrderPropertiesTestType } from '../domain/out-of-order-properties';
import { pageOf } from '../domain/query';
import { ArrayTestType, InterfaceObjectTestType, ObjectTestType, ObjectTestTypeDraft } from '../domain/resource';
import { FacetRange, FacetResult, FacetTerm, FilterFacetResult, RangeFacetResult, TermFacetResult } from '../domain/search';
import { MAX_UPDATE_ACTIONS, UpdateRequest, updateActionSchemas } from '../domain/update-actions';
import { fromDomainError } from './domain-errors';
import { JSON_BODY_LIMIT_BYTES } from './endpoint';
import {
  ErrorBody,
  ErrorObject,
  concurrentModification,
  general,
  insufficientScope,
  invalidInput,
  invalidOperation,
  invalidToken,
  methodNotAllowed,
  notFoundRoute,
  oauthError,
  overCapacity,
  requestEntityTooLarge,
  unsupportedMediaType,
} from './errors';
import type { HandlerName, Route, RouteDefinition } from './routes';

/**
 * What each handler takes and answers, for the OpenAPI document (openapi.ts). The schemas are the
 * ones that validate requests and type answers — the domain's zod schemas, composed here, never
 * copied. Typed against the route table: a new handler does not compile until it is described.
 */

// ---- Named schemas: listed under components/schemas and referred to by name -----------------------

/** The schemas the document names, with a description each. */
export const namedSchemas = new Map<z.core.$ZodType, { id: string; description?: string }>();

function named<S extends z.core.$ZodType>(id: string, schema: S, description?: string): S {
  namedSchemas.set(schema, { id, ...(description === undefined ? {} : { description }) });
  return schema;
}

named('ArrayTestType', ArrayTestType, "The interface's ArrayTestType; every field optional, but constrained when present.");
named('ObjectTestType', ObjectTestType, 'A stored resource: the interface\'s ObjectTestType plus id, key, version, timestamps and `someProperty`.');
named('ObjectTestTypeDraft', ObjectTestTypeDraft, 'Body of POST, PUT and PATCH on the collection. `key` names the resource to overwrite; `version`, when given, must match it.');
named('InterfaceObjectTestType', InterfaceObjectTestType, "The interface's own ObjectTestType (`{version, objectTypeProperty}`), as row 1's `unionParameter` takes it.");
named('OutOfOrderPropertiesTestType', OutOfOrderPropertiesTestType, 'Body of the complex-path POST; it must name a resource by `id` or `key`.');
named('Image', Image);
named('Variant', Variant, 'The product variant an image was attached to.');
named('ImageUploadTicket', ImageUploadTicket, 'A started image upload: PUT the image to `url` with `headers`, then complete the upload.');
named('FacetTerm', FacetTerm);
named('TermFacetResult', TermFacetResult);
named('FacetRange', FacetRange);
named('RangeFacetResult', RangeFacetResult);
named('FilterFacetResult', FilterFacetResult);
named('FacetResult', FacetResult);
named('JsonValue', JsonValueSchema, 'Any JSON value.');
named('ErrorObject', ErrorObject, 'One problem: `code`, `message`, and the details of its code (`field`, `invalidValue`, `currentVersion`, ...).');
const ErrorResponse = named('ErrorResponse', ErrorBody, 'Every error answer, in the commercetools shape.');
const OAuthErrorResponse = named(
  'OAuthErrorResponse',
  z.looseObject({ ...ErrorBody.shape, error: z.string(), error_description: z.string() }),
  'Errors of the OAuth endpoints: the commercetools shape plus the RFC 6749 §5.2 fields.',
);

type UpdateActionSchema = (typeof updateActionSchemas)[keyof typeof updateActionSchemas];
const UpdateAction = named(
  'UpdateAction',
  z.discriminatedUnion('action', Object.values(updateActionSchemas) as [UpdateActionSchema, ...UpdateActionSchema[]]),
  'One update action; `setKey` (beyond the interface) sets the key, or removes it without `key`.',
);
for (const [action, schema] of Object.entries(updateActionSchemas)) named(`${action[0]!.toUpperCase()}${action.slice(1)}Action`, schema);

const UpdateRequestBody = named(
  'UpdateRequest',
  z.strictObject({ ...UpdateRequest.shape, actions: z.array(UpdateAction).max(MAX_UPDATE_ACTIONS) }),
  'Body of POST /{projectKey}/resource/{id}: the expected version and the actions, applied in order, all or nothing.',
);
const PagedQueryResult = named('PagedQueryResult', pageOf(ObjectTestType), 'A page of resources.');
const SearchResult = named(
  'SearchResult',
  z.object({ ...pageOf(ObjectTestType).shape, facets: z.record(z.string(), FacetResult) }),
  'A page of resources and the facets asked for, keyed by their `as` name or their expression.',
);

const TokenRequest = named(
  'TokenRequest',
  z.object({
    grant_type: z.literal('client_credentials'),
    scope: z.string().optional().meta({ description: 'Space-separated scopes, e.g. `manage_test:demo view_test:demo`; none asked: all of the client\'s.' }),
  }),
  'Form body of POST /oauth/token.',
);
const TokenResponse = named(
  'TokenResponse',
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ description: 'Seconds until the token expires' }),
    scope: z.string().meta({ description: 'The granted scopes, space-separated' }),
  }),
);
const IntrospectionRequest = named('IntrospectionRequest', z.object({ token: z.string() }), 'Form body of POST /oauth/introspect.');
const IntrospectionResponse = named(
  'IntrospectionResponse',
  z.union([
    z.object({ active: z.literal(false) }),
    z.object({
      active: z.literal(true),
      scope: z.string(),
      client_id: z.string(),
      token_type: z.literal('Bearer'),
      exp: z.number().int(),
      iat: z.number().int().optional(),
      nbf: z.number().int().optional(),
      sub: z.string().optional(),
      aud: z.union([z.string(), z.array(z.string())]).optional(),
      iss: z.string().optional(),
      jti: z.string().optional(),
    }),
  ]),
  'RFC 7662 §2.2: `{active: false}` for any token that is not active, with no reason.',
);
// shared/auth/introspection.ts types the answer in TypeScript; both must say the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _introspectionMatches: Same<z.infer<typeof IntrospectionResponse>, Introspection> = true;

const Jwks = named(
  'Jwks',
  z.object({
    keys: z.array(
      z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig') }),
    ),
  }),
  'The public keys that verify access tokens (RS256); `kid` is the RFC 7638 thumbprint.',
);
// What this documents must be a JWKS of shared/auth/signing-keys.ts (whose JsonWebKey fields are all optional).
const _jwksFits: [z.infer<typeof Jwks>] extends [{ keys: PublicJwk[] }] ? true : false = true;

// ---- Error answers ---------------------------------------------------------------------------------

export interface ErrorResponseSpec {
  status: number;
  description: string;
  schema: z.core.$ZodType;
  example: unknown;
}

/** Every error answer the service gives, by the name components/responses lists it under. */
export const errorResponses = {
  BadRequest: {
    status: 400,
    description:
      'The request is not acceptable: `InvalidInput` (query parameter, predicate, unknown field, fuzzyLevel too high), `InvalidJsonInput`, `InvalidField`, `RequiredField`, `DuplicateField` or `InvalidOperation`.',
    schema: ErrorResponse,
    example: invalidInput("The query parameter 'limit' must be an integer from 0 to 500, got 'ten'.").body,
  },
  OAuthBadRequest: {
    status: 400,
    description: 'RFC 6749 §5.2: `invalid_request`, `unsupported_grant_type` or `invalid_scope`.',
    schema: OAuthErrorResponse,
    example: oauthError(400, 'invalid_scope', 'The client may not be granted: manage_test:other.').body,
  },
  InvalidClient: {
    status: 401,
    description: '`invalid_client`: client authentication failed (unknown client, wrong secret, revoked, or locked after repeated failures).',
    schema: OAuthErrorResponse,
    example: oauthError(401, 'invalid_client', 'Client authentication failed.').body,
  },
  Unauthorized: {
    status: 401,
    description: '`invalid_token`: the bearer token is missing, malformed, expired or not issued by this service.',
    schema: ErrorResponse,
    example: invalidToken().body,
  },
  Forbidden: {
    status: 403,
    description: '`insufficient_scope`: the token holds none of the scopes this operation needs for the path\'s project; the message names them.',
    schema: ErrorResponse,
    example: insufficientScope(['manage_test:demo']).body,
  },
  NotFound: {
    status: 404,
    description: '`ResourceNotFound`: no such resource in the project (or no binding for an extension action, or no open image upload).',
    schema: ErrorResponse,
    example: fromDomainError(new ResourceNotFoundError("The resource with id '7b5f6d0c-4b8e-4c50-9d0a-3f1b2a4c5d6e'")).body,
  },
  RouteNotFound: {
    status: 404,
    description: '`NotFound`: no endpoint serves this method and path.',
    schema: ErrorResponse,
    example: notFoundRoute('GET', '/demo/unknown').body,
  },
  MethodNotAllowed: {
    status: 405,
    description: '`MethodNotAllowed`: the path exists for other methods, listed in the `Allow` header.',
    schema: ErrorResponse,
    example: methodNotAllowed('DELETE', '/demo/resource', ['GET', 'HEAD', 'POST', 'PATCH', 'PUT']).body,
  },
  Conflict: {
    status: 409,
    description: '`ConcurrentModification`: the expected version is not the current one (`currentVersion` says which is), or concurrent writers collided; nothing was applied.',
    schema: ErrorResponse,
    example: concurrentModification(1, 2).body,
  },
  UploadNotReceived: {
    status: 409,
    description: '`InvalidOperation`: nothing was uploaded to the upload URL yet; the upload stays open until it expires.',
    schema: ErrorResponse,
    example: invalidOperation('The image has not been uploaded yet: PUT it to the upload URL with the headers given, then complete the upload.', 409).body,
  },
  PayloadTooLarge: {
    status: 413,
    description: `\`RequestEntityTooLarge\`: JSON bodies are limited to ${JSON_BODY_LIMIT_BYTES} bytes, images to ${MAX_IMAGE_BYTES} bytes.`,
    schema: ErrorResponse,
    example: requestEntityTooLarge(JSON_BODY_LIMIT_BYTES).body,
  },
  UnsupportedMediaType: {
    status: 415,
    description: '`UnsupportedMediaType`: the body is not of the content type this operation takes.',
    schema: ErrorResponse,
    example: unsupportedMediaType('application/json', 'text/plain').body,
  },
  InternalServerError: {
    status: 500,
    description: '`General`: an unexpected failure; the body holds no internals.',
    schema: ErrorResponse,
    example: general().body,
  },
  BadGateway: {
    status: 502,
    description: '`ExtensionBadResponse`: the handler bound to the extension action gave no usable JSON answer.',
    schema: ErrorResponse,
    example: {
      statusCode: 502,
      message: "The extension bound to 'namespace-action' gave no usable answer: The extension did not answer JSON.",
      errors: [{ code: 'ExtensionBadResponse', message: "The extension bound to 'namespace-action' gave no usable answer: The extension did not answer JSON.", action: 'namespace-action' }],
    },
  },
  ServiceUnavailable: {
    status: 503,
    description: '`OverCapacity`: the store is throttling; retry after the `Retry-After` seconds.',
    schema: ErrorResponse,
    example: overCapacity().body,
  },
  GatewayTimeout: {
    status: 504,
    description: '`ExtensionNoResponse`: the handler bound to the extension action did not answer in time.',
    schema: ErrorResponse,
    example: {
      statusCode: 504,
      message: "The extension bound to 'namespace-action' did not answer within 2000 ms.",
      errors: [{ code: 'ExtensionNoResponse', message: "The extension bound to 'namespace-action' did not answer within 2000 ms.", action: 'namespace-action' }],
    },
  },
} satisfies Record<string, ErrorResponseSpec>;

export type ErrorResponseName = keyof typeof errorResponses;

// ---- Path parameters ------------------------------------------------------------------------------

type PathParameterOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterOf<Rest> : never;

/** Every `{parameter}` of the route table's paths, described (a new one does not compile until it is). */
export const pathParameters: Record<PathParameterOf<RouteDefinition['path']>, { description: string; pattern?: string }> = {
  projectKey: { description: 'The project. A token opens a project through scopes bound to its key, e.g. `manage_test:<projectKey>`.' },
  id: { description: 'The resource id; on GET, `key=<key>` instead reads the resource by its key.' },
  uriParameterOne: {
    description: 'The whole segment `uri-parameter-one=<value>`: the prefix is part of the path, `<value>` is the parameter.',
    pattern: '^uri-parameter-one=.+$',
  },
  uriParameterTwo: { description: 'A plain path segment.' },
  uploadId: { description: 'The id the start of the upload answered.' },
};

// ---- Per handler -----------------------------------------------------------------------------------

/** Sections of the reference, in this order. */
export const tags = {
  Resources: 'The resource collection of a project: query, search, create, read, update, delete.',
  Images: 'Images of product variants.',
  Extensions: 'Extension actions, answered by what the project bound them to.',
  OAuth: 'The OAuth 2.0 token service (same origin as the API).',
  'API reference': 'This document and the page that renders it.',
} as const;
export type Tag = keyof typeof tags;

/** Bodies by content type; `null`: any bytes of that type. */
export type Content = Readonly<Record<string, z.core.$ZodType | null>>;

export interface ResponseSpec {
  description: string;
  /** None: the answer has no body. */
  content?: Content;
  /** Response headers beyond X-Correlation-ID (every answer's), with what they say. */
  headers?: Readonly<Record<string, string>>;
  example?: unknown;
}

export interface RouteSchema {
  /** The section of the reference (the not-found fallback is not an operation and has none). */
  tag?: Tag;
  /** What the route table's summary leaves out. */
  description?: string;
  /** The OAuth endpoints: the caller authenticates as an API client with HTTP Basic. */
  clientAuthentication?: 'basic';
  request?: { required: boolean; description?: string; content: Content };
  /** Success answers by status. */
  responses: Readonly<Record<number, ResponseSpec>>;
  /** Error answers; 401, 403 (project routes) and 500 (every route) are added by the document. */
  errors: readonly ErrorResponseName[];
}

const json = (schema: z.core.$ZodType): Content => ({ 'application/json': schema });
const jsonBody = (schema: z.core.$ZodType) => ({ required: true, content: json(schema) });
const form = (schema: z.core.$ZodType) => ({ required: false, content: { 'application/x-www-form-urlencoded': schema } });

const RESOURCE = { description: 'The resource.', content: json(ObjectTestType) };
const CREATED = { description: 'Created: the new resource, version 1.', content: json(ObjectTestType) };
const PAGE = { description: 'A page of the matching resources.', content: json(PagedQueryResult) };
const NO_STORE = { 'Cache-Control': '`no-store`: tokens and claims are never cached.' };

const QUERY_ERRORS = ['BadRequest', 'ServiceUnavailable'] as const;
const WRITE_ERRORS = ['BadRequest', 'Conflict', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'] as const;
const VAR_PARAMETERS =
  'Predicates may use input variables: `var.<name>=<value>` (repeatable) is referred to as `:<name>` in `where`.';

export const routeSchemas: Record<HandlerName | 'route-not-found', RouteSchema | ((route: Route) => RouteSchema)> = {
  'issue-token': {
    tag: 'OAuth',
    description: 'OAuth 2.0 client credentials (RFC 6749 §4.4). Authenticate with HTTP Basic (client id and secret); `scope` may also come in the query. A client is granted at most the scopes it was created with.',
    clientAuthentication: 'basic',
    request: form(TokenRequest),
    responses: { 200: { description: 'A bearer token.', content: json(TokenResponse), headers: NO_STORE } },
    errors: ['OAuthBadRequest', 'InvalidClient'],
  },
  'introspect-token': {
    tag: 'OAuth',
    description: 'Token introspection (RFC 7662). Authenticate with HTTP Basic as an API client.',
    clientAuthentication: 'basic',
    request: { ...form(IntrospectionRequest), required: true },
    responses: { 200: { description: 'Whether the token is active, and its claims.', content: json(IntrospectionResponse), headers: NO_STORE } },
    errors: ['OAuthBadRequest', 'InvalidClient'],
  },
  'get-jwks': {
    tag: 'OAuth',
    responses: { 200: { description: 'The JSON Web Key Set.', content: json(Jwks) } },
    errors: [],
  },
  'query-resources': {
    tag: 'Resources',
    description: `A paged query. The typed parameters of the interface are checked by type and do not narrow the result. ${VAR_PARAMETERS}`,
    responses: { 200: PAGE },
    errors: QUERY_ERRORS,
  },
  'check-resources-exist': {
    tag: 'Resources',
    description: `Reading stops at the first match. ${VAR_PARAMETERS}`,
    responses: {
      200: { description: 'At least one resource matches (no body).' },
      404: { description: 'No resource matches (no body).' },
    },
    errors: QUERY_ERRORS,
  },
  'query-sorted-resources': {
    tag: 'Resources',
    description: `The paged query of \`GET /{projectKey}/resource\`. ${VAR_PARAMETERS}`,
    responses: { 200: PAGE },
    errors: QUERY_ERRORS,
  },
  'search-resources': {
    tag: 'Resources',
    description:
      'Full-text search: `text.<locale>=<words>` (e.g. `text.en=dog`; every word must match a word of the resource\'s strings). `fuzzy=true` allows the platform default edit distance (0 for 1–2 characters, 1 for 3–5, 2 above); a `fuzzyLevel` above it is 400. `filter`, `filter.query` and `filter.facets` take `<field>:<values or range(a to b)>`; `facet` takes `<field>`, `<field>:range(...)` or `<field>:<condition>`, optionally `as <name>`.',
    responses: { 200: { description: 'A page of the matches and the facets.', content: json(SearchResult) } },
    errors: QUERY_ERRORS,
  },
  'create-resource': {
    tag: 'Resources',
    request: jsonBody(ObjectTestTypeDraft),
    responses: { 201: CREATED, 200: { description: 'The draft\'s key existed: that resource, updated in place (version + 1).', content: json(ObjectTestType) } },
    errors: WRITE_ERRORS,
  },
  'overwrite-resource': {
    tag: 'Resources',
    description: 'The draft must carry `key`; a `version` in it must match.',
    request: jsonBody(ObjectTestTypeDraft),
    responses: { 200: { description: 'The overwritten resource (version + 1).', content: json(ObjectTestType) } },
    errors: [...WRITE_ERRORS, 'NotFound'],
  },
  'put-resource': {
    tag: 'Resources',
    request: jsonBody(ObjectTestTypeDraft),
    responses: { 201: CREATED, 200: { description: 'The draft\'s key existed: that resource, overwritten (version + 1).', content: json(ObjectTestType) } },
    errors: WRITE_ERRORS,
  },
  'get-resource': {
    tag: 'Resources',
    responses: { 200: RESOURCE },
    errors: ['NotFound', 'ServiceUnavailable'],
  },
  'update-resource': {
    tag: 'Resources',
    description: 'A request that changes the resource raises its version by exactly 1; one that changes nothing keeps it.',
    request: jsonBody(UpdateRequestBody),
    responses: { 200: { description: 'The resource after the actions.', content: json(ObjectTestType) } },
    errors: [...WRITE_ERRORS, 'NotFound'],
  },
  'delete-resource': {
    tag: 'Resources',
    description: 'Its key becomes free again.',
    responses: { 200: { description: 'The deleted resource.', content: json(ObjectTestType) } },
    errors: ['BadRequest', 'NotFound', 'Conflict', 'ServiceUnavailable'],
  },
  'post-complex-path': {
    tag: 'Resources',
    request: jsonBody(OutOfOrderPropertiesTestType),
    responses: {
      200: { description: 'A document at this path was replaced.', content: json(ArrayTestType) },
      201: { description: 'The document is new at this path.', content: json(ArrayTestType) },
      203: { description: 'The body\'s `version` is not the resource\'s current one; the answer reflects the current version.', content: json(ArrayTestType) },
    },
    errors: ['BadRequest', 'NotFound', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
  },
  'upload-image': {
    tag: 'Images',
    description: `The body is the image itself (at most ${MAX_IMAGE_BYTES} bytes; larger ones, up to ${MAX_UPLOAD_BYTES}, go through \`POST /{projectKey}/resource/images/uploads\`); its type is checked by its bytes and must agree with Content-Type. Choose the variant with \`sku\` or \`variant\` (created on its first image). \`staged\` defaults to true (the image joins \`stagedImages\` only); \`filename\` defaults to \`img\`.`,
    request: { required: true, content: Object.fromEntries(IMAGE_CONTENT_TYPES.map((type) => [type, null])) },
    responses: { 200: { description: 'The variant with the image attached.', content: json(Variant) } },
    errors: ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
  },
  'start-image-upload': {
    tag: 'Images',
    description: `Step 1 of 2, for images of up to ${MAX_UPLOAD_BYTES} bytes: \`sku\`, \`variant\`, \`filename\` and \`staged\` as for \`POST /{projectKey}/resource/images\`, plus the image's \`contentType\` and \`size\`. Answers a presigned S3 URL: PUT the image to it with exactly the headers given (S3 refuses another type or length, and a second PUT), then complete the upload. URL and upload expire after ${UPLOAD_TTL_SECONDS / 60} minutes.`,
    responses: { 201: { description: 'The upload is open: where and how to PUT the image.', content: json(ImageUploadTicket) } },
    errors: ['BadRequest', 'UnsupportedMediaType', 'ServiceUnavailable'],
  },
  'complete-image-upload': {
    tag: 'Images',
    description:
      'Step 2 of 2: the uploaded object is checked like the body of `POST /{projectKey}/resource/images` (declared size and type, magic number, dimensions) and attached to the variant chosen at the start. An image that fails a check is deleted and the upload closed (400, 415); nothing uploaded yet is 409 and the upload stays open. A completed, expired or unknown upload is 404.',
    responses: { 200: { description: 'The variant with the image attached.', content: json(Variant) } },
    errors: ['BadRequest', 'NotFound', 'UploadNotReceived', 'UnsupportedMediaType', 'ServiceUnavailable'],
  },
  'call-extension-action': (route) => ({
    tag: 'Extensions',
    description:
      'Forwarded to the handler the project bound the action to (an HTTPS endpoint, a Lambda function or a static JSON document), with the method, query and body; its status and JSON answer are relayed. The handler has 2 s.',
    ...(route.method === 'POST' ? { request: { required: false, content: json(JsonValueSchema) } } : {}),
    responses: {
      200: {
        description: route.path.endsWith('-with-example')
          ? "The bound handler's JSON answer; bound by default to the action's declared example, a cart."
          : "The bound handler's JSON answer (it chooses the status).",
        content: json(JsonValueSchema),
        ...(route.path.endsWith('-with-example') ? { example: CART_EXAMPLE } : {}),
      },
    },
    errors: route.method === 'POST' ? ['BadRequest', 'NotFound', 'PayloadTooLarge', 'UnsupportedMediaType', 'BadGateway', 'ServiceUnavailable', 'GatewayTimeout'] : ['NotFound', 'BadGateway', 'ServiceUnavailable', 'GatewayTimeout'],
  }),
  'put-json-value': {
    tag: 'Extensions',
    request: jsonBody(JsonValueSchema),
    responses: { 200: { description: 'The stored value.', content: json(JsonValueSchema) } },
    errors: ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
  },
  'get-openapi': {
    tag: 'API reference',
    responses: { 200: { description: 'This document.', content: json(z.record(z.string(), z.unknown())) } },
    errors: [],
  },
  'get-api-docs': (route) => ({
    tag: 'API reference',
    responses: {
      200: {
        description: route.path === '/docs' ? 'An HTML page that renders /openapi.json.' : 'A file of Swagger UI.',
        content: { [route.path.endsWith('.js') ? 'text/javascript' : route.path.endsWith('.css') ? 'text/css' : 'text/html']: z.string() },
      },
    },
    errors: [],
  }),
  'route-not-found': {
    responses: {},
    errors: ['RouteNotFound', 'MethodNotAllowed'],
  },
};

/** The route's schemas. */
export function routeSchemaOf(route: Route): RouteSchema {
  const entry = routeSchemas[route.handler as keyof typeof routeSchemas];
  return typeof entry === 'function' ? entry(route) : entry;
}
