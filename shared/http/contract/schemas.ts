import * as z from 'zod/mini';
import type { AuthorizationServerMetadata } from '../../auth/authorization-server-metadata';
import type { Introspection } from '../../auth/introspection';
import type { PublicJwk } from '../../auth/signing-keys';
import { JsonValueSchema } from '../../domain/extensions/binding';
import { ImageUploadTicket } from '../../domain/images/image-upload-ticket';
import { VariantAnswer } from '../../domain/images/variant';
import { OutOfOrderPropertiesTestType } from '../../domain/out-of-order-properties';
import { pageOf } from '../../domain/query';
import { ArrayTestType, InterfaceObjectTestType, ObjectTestType, ObjectTestTypeDraft } from '../../domain/resource';
import { FacetRange, FacetResult, FacetTerm, FilterFacetResult, RangeFacetResult, TermFacetResult } from '../../domain/search';
import * as productSearchAnswer from '../../domain/search/product-search-answer';
import { ResourceSearchRequest, SearchQuery, SearchSorting } from '../../domain/search/product-search-request';
import productSearchExamples from './product-search-examples.json' with { type: 'json' };
import { Subscription, SubscriptionDraft } from '../../domain/subscriptions/subscription';
import { MAX_UPDATE_ACTIONS, UpdateRequest, updateActions, type UpdateActionName } from '../../domain/update-actions';

/**
 * The schema catalogue: every body and answer of the OpenAPI document, by the name declarations
 * refer to it with (`json('ObjectTestType')`; the names are checked by type). The domain's own zod
 * schemas, never copies; the OAuth and error answers' schemas are here, checked against the types
 * shared/auth and shared/http/errors.ts answer with. Named schemas are listed under
 * components/schemas and referred to by `$ref`, also where they are nested in others; `inline` ones
 * are written out where used. Only the document builder (openapi.ts) imports this module, so
 * declarations put no schema into any function's bundle.
 */
export interface DocumentSchema {
  schema: z.core.$ZodType;
  description?: string;
  /** Written out where it is used instead of listed under components/schemas. */
  inline?: true;
  /** Named examples of a request body, shown where it is sent. */
  examples?: Readonly<Record<string, { summary: string; value: unknown }>>;
}

const ErrorObject = z.looseObject({ code: z.string(), message: z.string() });
export type ErrorObject = z.infer<typeof ErrorObject>;

/** Every error answer: the first error's message on top, at least one error object. */
const ErrorBody = z.looseObject({ statusCode: z.number().check(z.int()), message: z.string(), errors: z.array(ErrorObject).check(z.minLength(1)) });
export type ErrorBody = z.infer<typeof ErrorBody>;

const Jwks = z.object({ keys: z.array(z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig') })) });
// What this documents must be a JWKS of shared/auth/signing-keys.ts (whose JsonWebKey fields are all optional).
const _jwksFits: [z.infer<typeof Jwks>] extends [{ keys: PublicJwk[] }] ? true : false = true;

const IntrospectionResponse = z.union([
  z.object({ active: z.literal(false) }),
  z.object({
    active: z.literal(true),
    scope: z.string(),
    client_id: z.string(),
    token_type: z.literal('Bearer'),
    exp: z.number().check(z.int()),
    iat: z.optional(z.number().check(z.int())),
    nbf: z.optional(z.number().check(z.int())),
    sub: z.optional(z.string()),
    aud: z.optional(z.union([z.string(), z.array(z.string())])),
    iss: z.optional(z.string()),
    jti: z.optional(z.string()),
  }),
]);

const AuthorizationServerMetadataSchema = z.object({
  issuer: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  introspection_endpoint: z.string(),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  introspection_endpoint_auth_methods_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  service_documentation: z.string(),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// shared/auth types the answers in TypeScript; both must say the same.
const _introspectionMatches: Same<z.infer<typeof IntrospectionResponse>, Introspection> = true;
const _metadataMatches: Same<z.infer<typeof AuthorizationServerMetadataSchema>, AuthorizationServerMetadata> = true;

type UpdateActionSchema = (typeof updateActions)[UpdateActionName]['schema'];
const UpdateAction = z.discriminatedUnion('action', Object.values(updateActions).map((action) => action.schema) as [UpdateActionSchema, ...UpdateActionSchema[]]);

/** Each update action under its own name (`changeSomeProperty`: ChangeSomePropertyAction). */
const actionSchemas = Object.fromEntries(
  Object.entries(updateActions).map(([name, action]) => [`${name[0]!.toUpperCase()}${name.slice(1)}Action`, { schema: action.schema }]),
) as unknown as Record<`${Capitalize<UpdateActionName>}Action`, DocumentSchema>; // fromEntries forgets the names

export const documentSchemas = {
  // The resource.
  ObjectTestType: {
    schema: ObjectTestType,
    description: "A stored resource: ObjectTestType (`{version, objectTypeProperty}`) plus id, key, version, timestamps and `someProperty`.",
  },
  ObjectTestTypeDraft: {
    schema: ObjectTestTypeDraft,
    description: 'Body of POST, PUT and PATCH on the collection. `key` names the resource to overwrite; `version`, when given, must match it.',
  },
  InterfaceObjectTestType: {
    schema: InterfaceObjectTestType,
    description: "ObjectTestType itself (`{version, objectTypeProperty}`), as the `unionParameter` of GET /{projectKey}/resource takes it.",
  },
  ArrayTestType: { schema: ArrayTestType, description: "ArrayTestType; every field optional, but constrained when present." },
  PagedQueryResult: { schema: pageOf(ObjectTestType), description: 'A page of resources.' },
  UpdateAction: { schema: UpdateAction, description: "One update action; `setKey` (this service's addition) sets the key, or removes it without `key`." },
  ...actionSchemas,
  UpdateRequest: {
    schema: z.strictObject({ ...UpdateRequest.shape, actions: z.array(UpdateAction).check(z.maxLength(MAX_UPDATE_ACTIONS)) }),
    description: 'Body of POST /{projectKey}/resource/{id}: the expected version and the actions, applied in order, all or nothing.',
  },
  OutOfOrderPropertiesTestType: { schema: OutOfOrderPropertiesTestType, description: 'Body of the complex-path POST; it must name a resource by `id` or `key`.' },
  JsonValue: { schema: JsonValueSchema, description: 'Any JSON value.' },
  // Search.
  FacetTerm: { schema: FacetTerm },
  TermFacetResult: { schema: TermFacetResult },
  FacetRange: { schema: FacetRange },
  RangeFacetResult: { schema: RangeFacetResult },
  FilterFacetResult: { schema: FilterFacetResult },
  FacetResult: { schema: FacetResult },
  SearchResult: {
    schema: z.object({ ...pageOf(ObjectTestType).shape, facets: z.record(z.string(), FacetResult) }),
    description: 'A page of resources and the facets asked for, keyed by their `as` name or their expression.',
  },
  // Product Search's request and answer (POST /{projectKey}/resource/search).
  ResourceSearchRequest: { schema: ResourceSearchRequest, description: "Product Search's request (ProductSearchRequest) over the resource.", examples: productSearchExamples },
  SearchQuery: { schema: SearchQuery, description: 'An object holding exactly one expression: a compound (`and`, `or`, `not`, `filter`: a non-empty list of queries) or a simple one.' },
  SearchSorting: { schema: SearchSorting },
  ResourceSearchFacetResultBucket: { schema: productSearchAnswer.ResourceSearchFacetResultBucket },
  ResourceSearchFacetResultCount: { schema: productSearchAnswer.ResourceSearchFacetResultCount },
  ResourceSearchFacetResultStats: { schema: productSearchAnswer.ResourceSearchFacetResultStats },
  ResourceSearchFacetResult: { schema: productSearchAnswer.ResourceSearchFacetResult },
  ResourceSearchResult: { schema: productSearchAnswer.ResourceSearchResult },
  ResourcePagedSearchResponse: { schema: productSearchAnswer.ResourcePagedSearchResponse, description: "Product Search's answer (ProductPagedSearchResponse): ids first." },
  // Images.
  Variant: { schema: VariantAnswer, description: 'The product variant an image was attached to, with the addresses of its images (each fetchable).' },
  ImageUploadTicket: { schema: ImageUploadTicket, description: 'A started image upload: PUT the image to `url` with `headers`, then complete the upload.' },
  // OAuth.
  TokenRequest: {
    schema: z.object({
      grant_type: z.literal('client_credentials'),
      scope: z.optional(z.string()).check(z.meta({ description: "Space-separated scopes, e.g. `manage_test:demo view_test:demo`; none asked: all of the client's." })),
    }),
    description: 'Form body of POST /oauth/token.',
  },
  TokenResponse: {
    schema: z.object({
      access_token: z.string(),
      token_type: z.literal('Bearer'),
      expires_in: z.number().check(z.int(), z.meta({ description: 'Seconds until the token expires' })),
      scope: z.string().check(z.meta({ description: 'The granted scopes, space-separated' })),
    }),
  },
  IntrospectionRequest: { schema: z.object({ token: z.string() }), description: 'Form body of POST /oauth/introspect.' },
  IntrospectionResponse: { schema: IntrospectionResponse, description: 'RFC 7662 §2.2: `{active: false}` for any token that is not active, with no reason.' },
  Jwks: { schema: Jwks, description: 'The public keys that verify access tokens (RS256); `kid` is the RFC 7638 thumbprint.' },
  AuthorizationServerMetadata: {
    schema: AuthorizationServerMetadataSchema,
    description: 'RFC 8414 metadata. Scopes are listed as templates (`manage_test:{projectKey}`), granted per project (`manage_test:demo`).',
  },
  // Errors.
  ErrorObject: { schema: ErrorObject, description: 'One problem: `code`, `message`, and the details of its code (`field`, `invalidValue`, `currentVersion`, ...).' },
  ErrorResponse: { schema: ErrorBody, description: 'Every error answer, in the commercetools shape.' },
  OAuthErrorResponse: {
    schema: z.looseObject({ ...ErrorBody.shape, error: z.string(), error_description: z.string() }),
    description: 'Errors of the OAuth endpoints: the commercetools shape plus the RFC 6749 §5.2 fields.',
  },
  /** What API Gateway answers itself (no token at all, a body over 10 MB, throttling) or the service does. */
  GatewayOrErrorResponse: { schema: z.union([ErrorBody, z.object({ message: z.string() })]), inline: true },
  // Subscriptions.
  SubscriptionDraft: { schema: SubscriptionDraft, description: 'Body of POST /{projectKey}/subscriptions: where the changes of `resource` go.' },
  Subscription: { schema: Subscription, description: 'A change subscription; on creation with an HTTP destination, also `signingSecret` (answered once).' },
  SubscriptionPagedQueryResponse: { schema: pageOf(Subscription), description: 'A page of the subscriptions.' },
  /** Any text (the API reference's page and files). */
  Text: { schema: z.string(), inline: true },
  /** Any JSON object (the OpenAPI document itself). */
  JsonObject: { schema: z.record(z.string(), z.unknown()), inline: true },
} satisfies Record<string, DocumentSchema>;

export type SchemaName = keyof typeof documentSchemas;
