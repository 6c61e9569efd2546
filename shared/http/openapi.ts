import { createDocument, type oas31, type ZodOpenApiObject, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import * as z from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { PROJECT_SCOPE_NAMES, type ProjectScopeName } from '../auth/scopes';
import { errorResponses, type ErrorResponseName } from './contract/error-responses';
import { documentSchemas, type DocumentSchema, type SchemaName } from './contract/schemas';
import type { Content, EndpointDeclaration, PathParameterSpec, ResponseSpec, RouteDeclaration, Tag } from './declaration';
import { JsonValueSchema } from '../domain/extensions/binding';
import { IDEMPOTENCY_RECORD_SECONDS } from '../domain/limits';
import type { ParameterSpec, ScalarType } from './parameters';
import { routeTableOf, type ServedRoute } from './route-table';

/**
 * The OpenAPI 3.1 document of the service: zod-openapi renders it from the endpoint declarations
 * (paths, methods, summaries, parameters, scopes, bodies and answers), the schema catalogue whose
 * names they refer to and the error catalogue; this module says only what is this service's own
 * (the errors every route answers, scopes, parameters, texts). `npm run openapi` writes it to
 * openapi.json, which `GET /openapi.json` serves; a test keeps the file equal to what the
 * declarations say.
 */

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = JsonSchema & { openapi: '3.1.0'; paths: Record<string, Record<string, JsonSchema>> };

const CORRELATION_HEADER = { $ref: '#/components/headers/X-Correlation-ID' };

/** Sections of the API reference, in this order. */
const TAGS: Record<Tag, string> = {
  Resources: 'The resource collection of a project: query, search, create, read, update, delete.',
  Images: 'Images of product variants.',
  Subscriptions: 'Change subscriptions: every change of the resources, sent to a webhook, a queue, a topic or an event bus.',
  Extensions: 'Extension actions, answered by what the project bound them to.',
  OAuth: 'The OAuth 2.0 token service (same origin as the API).',
  'API reference': 'This document and the page that renders it.',
};

/** What each project-bound scope opens (the document adds the operations that accept it). */
const SCOPE_DESCRIPTIONS: Record<ProjectScopeName, string> = {
  manage_test: 'Read and write the resources of the project (everything but the image upload)',
  view_test: 'Read the resources of the project',
  manage_products: 'Upload images to the product variants of the project',
  introspect_oauth_tokens: "Introspect any token of the project at POST /oauth/introspect (without it, a client introspects only its own tokens); no route of the project accepts it",
  manage_subscriptions: 'Create, read and delete the change subscriptions of the project',
  view_subscriptions: 'Read the change subscriptions of the project',
};

/** The document of these endpoints; the fallback's errors are named in the introduction. */
export function buildOpenApiDocument(endpoints: readonly EndpointDeclaration[], fallback: EndpointDeclaration): OpenApiDocument {
  const table = routeTableOf(endpoints);
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const served of table) {
    const { route } = served;
    const idempotent = served.endpoint.idempotencyKey === true;
    const responses: Record<string, ZodOpenApiResponseObject | { $ref: string }> = {};
    for (const [status, response] of Object.entries(route.responses) as [string, ResponseSpec][]) {
      responses[status] = {
        description: response.description,
        headers: {
          'X-Correlation-ID': CORRELATION_HEADER,
          ...Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }])),
        },
        ...(response.content && route.method !== 'HEAD' ? { content: content(response.content, response.example) } : {}),
      };
    }
    const declared = new Set(route.errors.map((name) => errorResponses[name].status));
    const errors: ErrorResponseName[] = [
      ...route.errors,
      // Every route reads its query string: a malformed one (a parameter twice, bad percent-encoding) is 400.
      ...(declared.has(400) ? [] : (['BadRequest'] as const)),
      ...(route.access.kind === 'project' ? (['Unauthorized', 'Forbidden'] as const) : []),
      // The gateway refuses bodies over 10 MB, and events over Lambda's payload, on every route.
      ...(declared.has(413) ? [] : (['PayloadTooLarge'] as const)),
      ...(idempotent ? (['IdempotencyKeyInFlight', 'IdempotencyKeyReused'] as const) : []),
      // API Gateway throttles every route (the stage's limit, stricter on the OAuth routes).
      'TooManyRequests',
      // A URL or headers over the gateway's limit, on every route.
      'RequestHeaderFieldsTooLarge',
      'InternalServerError',
    ];
    const byStatus = new Map<number, ErrorResponseName[]>();
    for (const name of errors) byStatus.set(errorResponses[name].status, [...(byStatus.get(errorResponses[name].status) ?? []), name]);
    for (const [status, names] of byStatus) {
      if (responses[status]) throw new Error(`${route.method} ${route.path} answers ${status} as a success and as an error.`);
      if (new Set(names).size < names.length) throw new Error(`${route.method} ${route.path} names an error twice: ${names.join(', ')}.`);
      // HEAD answers carry no body, errors included.
      if (route.method === 'HEAD') responses[status] = { description: names.map((name) => errorResponses[name].description).join(' '), headers: { 'X-Correlation-ID': CORRELATION_HEADER } };
      else responses[status] = names.length === 1 ? { $ref: `#/components/responses/${names[0]}` } : errorsSharingStatus(names);
    }

    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      ...(route.tag ? { tags: [route.tag] } : {}),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      operationId: operationIdOf(served),
      parameters: [
        ...pathParametersOf(route),
        ...Object.entries(route.query ?? {}).map(([name, spec]) => queryParameter(name, spec)),
        { $ref: '#/components/parameters/X-Correlation-ID' },
        ...(idempotent ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
      ],
      requestBody: route.request && {
        required: route.request.required,
        ...(route.request.description ? { description: route.request.description } : {}),
        content: content(route.request.content),
      },
      responses,
      security: securityOf(route),
    };
  }

  // `summary` is OpenAPI 3.1's; the library writes it, though its types know only 3.0's info fields.
  const info = {
    title: 'Generic Resource Service',
    version: packageJson.version,
    summary: 'A project-scoped HTTP API of the commercetools family: the `resource` collection of each project.',
    description: introduction(fallback),
  };
  const document: ZodOpenApiObject = {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'The origin that serves this document' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      // Named only by a parameter's contentSchema, which the library does not read.
      schemas: Object.fromEntries(table.flatMap(({ route }) => Object.values(route.query ?? {}).flatMap(({ shape }) => (shape ? [[shape.name, schemaNamed(shape.name)]] : [])))),
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([name, response]) => [
          name,
          {
            description: response.description,
            headers: { 'X-Correlation-ID': CORRELATION_HEADER, ...('headers' in response ? response.headers : {}) },
            content: { 'application/json': { schema: schemaNamed(response.schema), example: response.example } },
          },
        ]),
      ),
      parameters: {
        'X-Correlation-ID': {
          name: 'X-Correlation-ID',
          in: 'header',
          required: false,
          description: 'Echoed on the answer when it is 1–256 characters of `[A-Za-z0-9_.:/-]`; otherwise the service makes one.',
          schema: { type: 'string', pattern: '^[\\w.:/-]{1,256}$' },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: `Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): a request sent again with the same key, method, path, body and query string by the same client within ${IDEMPOTENCY_RECORD_SECONDS / 3600} hours answers what the first answered (status, body, headers) without doing it again. Only successful answers are kept: after a refusal or a failure the same key runs again. The same key with another request is 422, while the first still runs 409. A fresh value per operation, e.g. a UUID.`,
          schema: { type: 'string' },
        },
      },
      headers: {
        'X-Correlation-ID': { description: "The request's correlation id (its own, or a new `projects-<uuid>`).", schema: { type: 'string' } },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials at `POST /oauth/token`; send the token as `Authorization: Bearer <token>`. Scopes are bound to a project: `<scope>:<projectKey>`, e.g. `manage_test:demo` opens `/demo/...` and no other project. Ask for no scope to get all of your client\'s scopes.',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: scopeDescriptions(table) } },
        },
        clientBasic: { type: 'http', scheme: 'basic', description: "An API client's id and secret (RFC 6749 §2.3.1), for the OAuth endpoints." },
      },
    },
  };
  return withComponentIds(() => createDocument(document, { override: anyJsonValue })) as unknown as OpenApiDocument;
}

/** The document as `openapi.json` holds it. */
export function serializeOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

const schemaNamed = (name: SchemaName): z.core.$ZodType => documentSchemas[name].schema;

/**
 * Runs the builder with the catalogue's named schemas known to zod by their names and descriptions,
 * so each is listed under components/schemas once per side that reads it (requests as zod input,
 * answers as output; `<Name>Output` when the two differ) and referred to by `$ref` wherever it is
 * used, nested ones included (`unusedIO`: one only a parameter's `contentSchema` names is read as a
 * request). The registry is zod's global one, which the library reads: what it held before is put
 * back, so nothing else in the process sees these ids.
 */
function withComponentIds<T>(build: () => T): T {
  const named = Object.entries(documentSchemas as Readonly<Record<string, DocumentSchema>>).filter(([, entry]) => !entry.inline);
  const before = named.map(([, { schema }]) => [schema, z.globalRegistry.has(schema) ? z.globalRegistry.get(schema) : undefined] as const);
  try {
    for (const [id, { schema, description }] of named) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id, unusedIO: 'input', ...(description === undefined ? {} : { description }) });
    return build();
  } finally {
    for (const [schema, meta] of before) {
      z.globalRegistry.remove(schema);
      if (meta) z.globalRegistry.add(schema, meta);
    }
  }
}

/** Any JSON value as the empty schema: the same values as zod's recursive union, which generators cannot type (openapi-typescript's alias refers to itself: TS2502 under tsc --strict). */
function anyJsonValue({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  if (zodSchema === JsonValueSchema) for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
}

function content(media: Content, example?: unknown) {
  return Object.fromEntries(
    Object.entries(media).map(([type, name]) => {
      const examples = name === null ? undefined : (documentSchemas[name] as DocumentSchema).examples;
      return [type, { ...(name === null ? {} : { schema: schemaNamed(name) }), ...(example === undefined ? {} : { example }), ...(examples ? { examples } : {}) }];
    }),
  );
}

function pathParametersOf(route: RouteDeclaration): oas31.ParameterObject[] {
  // checkEndpoint refused any declaration that leaves one of them undescribed.
  const declared: Readonly<Record<string, PathParameterSpec>> = route.pathParameters;
  return [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const { description, pattern, maxLength } = declared[name!]!;
    return { name: name!, in: 'path', required: true, description, schema: { type: 'string', ...(pattern ? { pattern } : {}), ...(maxLength ? { maxLength } : {}) } };
  });
}

function queryParameter(name: string, spec: ParameterSpec): oas31.ParameterObject {
  const alternatives = [spec.type].flat().map((type) => scalarSchema(type, spec));
  const one = alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives };
  return {
    name,
    in: 'query',
    required: spec.required === true,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.repeatable ? { schema: { type: 'array', items: one }, style: 'form', explode: true } : { schema: one }),
  };
}

/** OpenAPI 3.1 schemas are JSON Schema 2020-12, whose `contentSchema` the library's type leaves out. */
type ParameterSchema = oas31.SchemaObject & { contentSchema?: oas31.SchemaObject | oas31.ReferenceObject };

function scalarSchema(type: ScalarType, spec: ParameterSpec): ParameterSchema {
  const bounds = { ...(spec.min === undefined ? {} : { minimum: spec.min }), ...(spec.max === undefined ? {} : { maximum: spec.max }) };
  const schemas: Record<ScalarType, ParameterSchema> = {
    string: { type: 'string', ...(spec.maxLength === undefined ? {} : { maxLength: spec.maxLength }) },
    number: { type: 'number', ...bounds },
    integer: { type: 'integer', ...bounds },
    boolean: { type: 'boolean' },
    'date-time': { type: 'string', format: 'date-time' },
    json: { type: 'string', contentMediaType: 'application/json', contentSchema: spec.shape ? { $ref: `#/components/schemas/${spec.shape.name}` } : { type: 'object' } },
  };
  return schemas[type];
}

function securityOf(route: RouteDeclaration): oas31.SecurityRequirementObject[] {
  if (route.access.kind === 'project') return route.access.anyOf.map((scope) => ({ oauth2: [`${scope}:{projectKey}`] }));
  return route.clientAuthentication === 'basic' ? [{ clientBasic: [] }] : [];
}

/** Each scope's template with what it opens, then a concrete example of it (the project `demo` of `npm start`), to pick in the reference page. */
function scopeDescriptions(table: readonly ServedRoute[]): Record<string, string> {
  return Object.fromEntries(
    PROJECT_SCOPE_NAMES.flatMap((scope) => {
      const opened = table
        .filter(({ route }) => route.access.kind === 'project' && route.access.anyOf.includes(scope))
        .map(({ key }) => key);
      return [
        [`${scope}:{projectKey}`, opened.length > 0 ? `${SCOPE_DESCRIPTIONS[scope]}: ${opened.join(', ')}.` : `${SCOPE_DESCRIPTIONS[scope]}.`],
        [`${scope}:demo`, `Example: \`${scope}:{projectKey}\` for the project \`demo\`.`],
      ];
    }),
  );
}

/** One answer for the errors of a route that share a status: each described, each with its example. */
function errorsSharingStatus(names: readonly ErrorResponseName[]): ZodOpenApiResponseObject {
  if (new Set(names.map((name) => errorResponses[name].schema)).size > 1) throw new Error(`The errors ${names.join(', ')} share a status but not a schema.`);
  return {
    description: names.map((name) => errorResponses[name].description).join(' Or: '),
    headers: { 'X-Correlation-ID': CORRELATION_HEADER },
    content: {
      'application/json': {
        schema: schemaNamed(errorResponses[names[0]!].schema),
        examples: Object.fromEntries(names.map((name) => [name, { value: errorResponses[name].example }])),
      },
    },
  };
}

/** The endpoint's name in camelCase; endpoints serving several routes add the method and last segment. */
function operationIdOf({ endpoint, route }: ServedRoute): string {
  const shared = endpoint.routes.length > 1;
  const words = [endpoint.name, ...(shared ? [route.method, route.path.split('/').pop()!] : [])].join('-').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase())).join('');
}

function introduction(fallback: EndpointDeclaration): string {
  const unknownRoutes = fallback.routes[0].errors
    .map((name) => `${errorResponses[name].status} \`${(errorResponses[name].example as { errors: { code: string }[] }).errors[0]!.code}\``)
    .join(' or ');
  return [
    'Inside one project (`/{projectKey}/...`) the service keeps a collection called `resource`: query it (where, sort, paging), check for matches, search it, create, read, overwrite, update with ordered actions at an expected version, and delete; upload images to product variants; call extension actions.',
    '',
    `**Authentication**: OAuth 2.0 client credentials at \`POST /oauth/token\` (HTTP Basic), then \`Authorization: Bearer <token>\`. Scopes are bound to a project: ${PROJECT_SCOPE_NAMES.map((scope) => `\`${scope}:<projectKey>\``).join(', ')}.`,
    '',
    '**Errors** always answer in the commercetools shape `{statusCode, message, errors: [{code, message, ...}]}` (see the ErrorResponse schema); HEAD answers have no body.',
    '',
    `**Unknown routes** answer ${unknownRoutes}. Every answer carries \`X-Correlation-ID\`.`,
  ].join('\n');
}
