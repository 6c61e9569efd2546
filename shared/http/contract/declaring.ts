import { InterfaceObjectTestType } from '../../domain/resource';
import { MAX_OFFSET, MAX_PAGE_SIZE, MAX_PREDICATE_LENGTH, MAX_SORT_LENGTH } from '../../domain/limits';
import type { Access, Content, PathParameterSpec, RequestSpec, ResponseSpec } from '../declaration';
import { namedShape, type ParameterSpecs } from '../parameters';
import type { ErrorResponseName } from './error-responses';
import type { SchemaName } from './schemas';

/**
 * What several endpoint declarations share: access rules, body shorthands, the path parameters of
 * many paths (an endpoint describes its own others), query parameters, answers and error lists.
 * Plain data: a function bundles what its declaration uses of it, and no schema but the one a
 * `json` parameter is checked against, where it is declared.
 */

export const READ: Access = { kind: 'project', anyOf: ['manage_test', 'view_test'] };
export const MANAGE: Access = { kind: 'project', anyOf: ['manage_test'] };
export const MANAGE_PRODUCTS: Access = { kind: 'project', anyOf: ['manage_products'] };
export const PUBLIC: Access = { kind: 'public' };
export const MANAGE_SUBSCRIPTIONS: Access = { kind: 'project', anyOf: ['manage_subscriptions'] };
export const VIEW_SUBSCRIPTIONS: Access = { kind: 'project', anyOf: ['manage_subscriptions', 'view_subscriptions'] };

export const json = (schema: SchemaName): Content => ({ 'application/json': schema });
export const jsonBody = (schema: SchemaName): RequestSpec => ({ required: true, content: json(schema) });
export const formBody = (schema: SchemaName): RequestSpec => ({ required: false, content: { 'application/x-www-form-urlencoded': schema } });

export const PROJECT_KEY: PathParameterSpec = {
  description: 'The project. A token opens a project through scopes bound to its key, e.g. `manage_test:<projectKey>`.',
};
export const RESOURCE_ID: PathParameterSpec = { description: 'The resource id; on GET, `key=<key>` instead reads the resource by its key.' };
export const SUBSCRIPTION_ID: PathParameterSpec = { description: 'The subscription id, or `key=<key>` to name it by its key.' };

/** The paged query of the commercetools family (GET and HEAD /{projectKey}/resource, GET …/sorted-query-parameters); `var.<name>` joins them. */
export const PAGED_QUERY = {
  where: { type: 'string', repeatable: true, maxLength: MAX_PREDICATE_LENGTH, description: 'Query predicate; several are AND-ed' },
  sort: { type: 'string', repeatable: true, maxLength: MAX_SORT_LENGTH, description: '`<field> asc|desc`, applied in order' },
  limit: { type: 'integer', min: 0, max: MAX_PAGE_SIZE, description: 'Page size (default 20)' },
  offset: { type: 'integer', min: 0, max: MAX_OFFSET, description: 'Results to skip (default 0)' },
  withTotal: { type: 'boolean', description: 'Count all matches (default true)' },
  expand: { type: 'string', repeatable: true, description: 'Accepted; the resource has no references' },
} as const satisfies ParameterSpecs;

/**
 * The declared parameters GET and HEAD /{projectKey}/resource share (paging and the typed
 * parameters the API declares), checked by type: they do not narrow the result. GET adds
 * `unionParameter`, whose JSON form is checked against ObjectTestType; HEAD does not declare it.
 */
export const RESOURCE_QUERY = {
  ...PAGED_QUERY,
  stringParameter: { type: 'string' },
  floatParameter: { type: 'number' },
  integerParameter: { type: 'integer' },
  withMarkdownDescription: { type: 'number' },
  objectParameter: { type: 'json' },
  arrayOfString: { type: 'string', repeatable: true },
  arrayOfStringWithDescription: { type: 'string', repeatable: true },
} as const satisfies ParameterSpecs;

/** The `unionParameter` of GET /{projectKey}/resource in its JSON form. Pure: only the function that declares it bundles the schema. */
export const INTERFACE_OBJECT_TEST_TYPE = /* @__PURE__ */ namedShape('InterfaceObjectTestType', InterfaceObjectTestType);

/** The parameters of POST /{projectKey}/resource/images, shared by both ways to upload: which variant gets the image, its file name, staged or published too. */
export const IMAGE_TARGET_QUERY = {
  filename: { type: 'string' },
  variant: { type: 'integer', min: 1 },
  sku: { type: 'string' },
  staged: { type: 'boolean' },
} as const satisfies ParameterSpecs;

export const VAR_PARAMETERS = 'Predicates may use input variables: `var.<name>=<value>` (repeatable) is referred to as `:<name>` in `where`.';

export const RESOURCE: ResponseSpec = { description: 'The resource.', content: json('ObjectTestType') };
export const CREATED: ResponseSpec = { description: 'Created: the new resource, version 1.', content: json('ObjectTestType') };
export const PAGE: ResponseSpec = { description: 'A page of the matching resources.', content: json('PagedQueryResult') };

export const QUERY_ERRORS = ['BadRequest', 'ServiceUnavailable'] as const satisfies readonly ErrorResponseName[];
export const WRITE_ERRORS = ['BadRequest', 'Conflict', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'] as const satisfies readonly ErrorResponseName[];
