import * as z from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { PROJECT_SCOPE_NAMES } from '../auth/scopes';
import { errorResponses, type ErrorResponseName } from './contract/error-responses';
import type { DocumentSchema } from './contract/document-schema';
import { documentSchemas, type SchemaName } from './contract/schemas';
import { SCOPE_DESCRIPTIONS } from './contract/scope-descriptions';
import { tags } from './contract/tags';
import type { Content, EndpointDeclaration, PathParameterSpec, ResponseSpec, RouteDeclaration } from './declaration';
import { JsonValueSchema } from '../domain/extensions/binding';
import { IDEMPOTENCY_RECORD_SECONDS } from '../domain/limits';
import type { ParameterSpec, ScalarType } from './parameters';
import { routeTableOf, type ServedRoute } from './route-table';

/**
 * The OpenAPI 3.1 document of the service, derived from the endpoint declarations (paths, methods,
 * summaries, path and query parameters, scopes, bodies and answers), the schema catalogue whose
 * names they refer to (through `z.toJSONSchema`) and the error catalogue. `npm run openapi` writes
 * it to openapi.json, which `GET /openapi.json` serves; a test keeps the file equal to what the
 * declarations say.
 */

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = JsonSchema & { openapi: '3.1.0'; paths: Record<string, Record<string, JsonSchema>> };

const SCHEMA_REF = '#/components/schemas/';
const RESPONSE_REF = '#/components/responses/';
const CORRELATION_HEADER = { $ref: '#/components/headers/X-Correlation-ID' };

/** The document of these endpoints; the fallback's errors are named in the introduction. */
export function buildOpenApiDocument(endpoints: readonly EndpointDeclaration[], fallback: EndpointDeclaration): OpenApiDocument {
  const table = routeTableOf(endpoints);
  const inputs = table.flatMap(({ route }) => [
    ...schemasOf(route.request?.content),
    ...Object.values(route.query ?? {}).flatMap((spec) => (spec.shape ? [schemaNamed(spec.shape.name)] : [])),
  ]);
  const outputs = [
    ...table.flatMap(({ route }) => Object.values(route.responses).flatMap((response: ResponseSpec) => schemasOf(response.content))),
    ...Object.values(errorResponses).map((response) => schemaNamed(response.schema)),
  ];
  const schemas = new JsonSchemas(inputs, outputs);

  const paths: OpenApiDocument['paths'] = {};
  for (const served of table) {
    const { route } = served;
    const methods = (paths[route.path] ??= {});
    const idempotent = served.endpoint.idempotencyKey === true;
    const parameters = [
      ...pathParametersOf(route),
      ...Object.entries(route.query ?? {}).map(([name, spec]) => queryParameter(name, spec, schemas)),
      { $ref: '#/components/parameters/X-Correlation-ID' },
      ...(idempotent ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
    ];
    const responses: Record<string, JsonSchema> = {};
    for (const [status, response] of Object.entries(route.responses) as [string, ResponseSpec][]) {
      responses[status] = {
        description: response.description,
        headers: { 'X-Correlation-ID': CORRELATION_HEADER, ...describeHeaders(response.headers) },
        ...(response.content && route.method !== 'HEAD' ? { content: content(response.content, schemas.output, response.example) } : {}),
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
      else responses[status] = names.length === 1 ? { $ref: `${RESPONSE_REF}${names[0]}` } : errorsSharingStatus(names, schemas);
    }

    methods[route.method.toLowerCase()] = {
      ...(route.tag ? { tags: [route.tag] } : {}),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      operationId: operationIdOf(served),
      parameters,
      ...(route.request
        ? {
            requestBody: {
              required: route.request.required,
              ...(route.request.description ? { description: route.request.description } : {}),
              content: content(route.request.content, schemas.input),
            },
          }
        : {}),
      responses,
      security: securityOf(route),
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Generic Resource Service',
      version: packageJson.version,
      summary: 'A project-scoped HTTP API of the commercetools family: the `resource` collection of each project.',
      description: introduction(fallback),
    },
    servers: [{ url: '/', description: 'The origin that serves this document' }],
    tags: Object.entries(tags).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: schemas.components(),
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([name, response]) => [
          name,
          {
            description: response.description,
            headers: { 'X-Correlation-ID': CORRELATION_HEADER, ...('headers' in response ? response.headers : {}) },
            content: { 'application/json': { schema: schemas.output(schemaNamed(response.schema)), example: response.example } },
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
}

/** The document as `openapi.json` holds it. */
export function serializeOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

// ---- Schemas ---------------------------------------------------------------------------------------

const catalogue: Readonly<Record<string, DocumentSchema>> = documentSchemas;

/** The catalogue's named schemas (not the inline ones), by the zod schema: listed under components, referred to by `$ref`. */
const namedSchemas = new Map(
  Object.entries(catalogue).flatMap(([id, { schema, description, inline }]) => (inline ? [] : [[schema, { id, description }] as const])),
);

const schemaNamed = (name: SchemaName): z.core.$ZodType => documentSchemas[name].schema;

/** The schemas of a declaration's bodies (`null`: any bytes, no schema). */
const schemasOf = (media: Content | undefined): z.core.$ZodType[] =>
  Object.values(media ?? {}).flatMap((name) => (name === null ? [] : [schemaNamed(name)]));

/**
 * The JSON Schemas of a document: the named schemas under components (referred to by `$ref`), the
 * others inline. Requests are converted as zod input, answers as output; a named schema used on
 * both sides must read the same both ways.
 */
class JsonSchemas {
  private readonly converted: Record<'input' | 'output', { named: Record<string, JsonSchema>; inline: Map<z.core.$ZodType, JsonSchema> }>;
  private readonly ids = new Map([...namedSchemas].map(([schema, { id }]) => [schema, id]));

  constructor(
    private readonly inputs: readonly z.core.$ZodType[],
    private readonly outputs: readonly z.core.$ZodType[],
  ) {
    this.converted = { input: convert('input', inputs), output: convert('output', outputs) };
  }

  readonly input = (schema: z.core.$ZodType): JsonSchema => this.reference('input', schema);
  readonly output = (schema: z.core.$ZodType): JsonSchema => this.reference('output', schema);

  private reference(io: 'input' | 'output', schema: z.core.$ZodType): JsonSchema {
    const id = this.ids.get(schema);
    if (id !== undefined) return { $ref: `${SCHEMA_REF}${id}` };
    const inline = this.converted[io].inline.get(schema);
    if (!inline) throw new Error('A schema of a declaration was not collected for the document.');
    return inline;
  }

  /** components/schemas: each named schema as the side that uses it reads it. */
  components(): Record<string, JsonSchema> {
    const { input, output } = this.converted;
    const readByRequests = reachable(this.inputs.map((schema) => this.input(schema)), input.named);
    const readByAnswers = reachable(this.outputs.map((schema) => this.output(schema)), output.named);
    const components: Record<string, JsonSchema> = {};
    // By name, so the document does not depend on the order the declarations' modules load in.
    for (const id of Object.keys(output.named).sort()) {
      if (readByRequests.has(id) && readByAnswers.has(id) && JSON.stringify(input.named[id]) !== JSON.stringify(output.named[id])) {
        throw new Error(`The schema ${id} reads differently as a request and as an answer; name each side separately.`);
      }
      components[id] = (readByRequests.has(id) ? input.named[id] : output.named[id])!;
    }
    for (const schema of [...Object.values(components), ...input.inline.values(), ...output.inline.values()]) {
      for (const ref of refsIn(schema)) {
        if (!(ref.slice(SCHEMA_REF.length) in components)) throw new Error(`Unresolved reference ${ref}.`);
      }
    }
    return components;
  }
}

function convert(io: 'input' | 'output', used: readonly z.core.$ZodType[]) {
  const registry = z.registry<{ id: string }>();
  for (const [schema, { id }] of namedSchemas) registry.add(schema, { id });
  const inlineIds = new Map<z.core.$ZodType, string>();
  for (const schema of used) {
    if (!namedSchemas.has(schema) && !inlineIds.has(schema)) {
      const id = `inline-${inlineIds.size}`;
      inlineIds.set(schema, id);
      registry.add(schema, { id });
    }
  }
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `${SCHEMA_REF}${id}`, unrepresentable: 'any' });
  const clean = (schema: unknown): JsonSchema => {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    return rest;
  };
  return {
    // The registry's descriptions describe the named schemas (zod reads its own `.meta()` ones).
    named: Object.fromEntries(
      [...namedSchemas].map(([schema, { id, description }]) => [
        id,
        { ...(schema === JsonValueSchema ? ANY_JSON_VALUE : clean(schemas[id])), ...(description === undefined ? {} : { description }) },
      ]),
    ),
    inline: new Map([...inlineIds].map(([schema, id]) => [schema, clean(schemas[id])])),
  };
}

/**
 * Any JSON value as the empty schema: the same values as zod's recursive union, which generators
 * cannot type (openapi-typescript's alias refers to itself: TS2502 under tsc --strict).
 */
const ANY_JSON_VALUE: JsonSchema = {};

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
}

/** The names of the components the schemas refer to, directly or through other components. */
function reachable(roots: readonly JsonSchema[], named: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const visit = (schema: unknown) => {
    for (const ref of refsIn(schema)) {
      const id = ref.slice(SCHEMA_REF.length);
      if (seen.has(id)) continue;
      seen.add(id);
      visit(named[id]);
    }
  };
  roots.forEach(visit);
  return seen;
}

function content(media: Content, schemaOf: (schema: z.core.$ZodType) => JsonSchema, example?: unknown): JsonSchema {
  return Object.fromEntries(
    Object.entries(media).map(([type, name]) => [
      type,
      { ...(name === null ? {} : { schema: schemaOf(schemaNamed(name)) }), ...(example === undefined ? {} : { example }) },
    ]),
  );
}

// ---- Parameters, security, names ---------------------------------------------------------------------

function pathParametersOf(route: RouteDeclaration): JsonSchema[] {
  const declared: Readonly<Record<string, PathParameterSpec | undefined>> = route.pathParameters;
  return [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const described = declared[name!];
    if (!described) throw new Error(`The path parameter ${name} of ${route.path} is not described by its declaration.`);
    return {
      name,
      in: 'path',
      required: true,
      description: described.description,
      schema: { type: 'string', ...(described.pattern ? { pattern: described.pattern } : {}), ...(described.maxLength ? { maxLength: described.maxLength } : {}) },
    };
  });
}

function queryParameter(name: string, spec: ParameterSpec, schemas: JsonSchemas): JsonSchema {
  const types = [spec.type].flat();
  const alternatives = types.map((type) => scalarSchema(type, spec, schemas));
  const one = alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives };
  return {
    name,
    in: 'query',
    required: spec.required === true,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.repeatable ? { schema: { type: 'array', items: one }, style: 'form', explode: true } : { schema: one }),
  };
}

function scalarSchema(type: ScalarType, spec: ParameterSpec, schemas: JsonSchemas): JsonSchema {
  const bounds = { ...(spec.min === undefined ? {} : { minimum: spec.min }), ...(spec.max === undefined ? {} : { maximum: spec.max }) };
  switch (type) {
    case 'string':
      return { type: 'string', ...(spec.maxLength === undefined ? {} : { maxLength: spec.maxLength }) };
    case 'number':
    case 'integer':
      return { type, ...bounds };
    case 'boolean':
      return { type: 'boolean' };
    case 'date-time':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: spec.shape ? schemas.input(schemaNamed(spec.shape.name)) : { type: 'object' },
      };
  }
}

function securityOf(route: RouteDeclaration): JsonSchema[] {
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
function errorsSharingStatus(names: readonly ErrorResponseName[], schemas: JsonSchemas): JsonSchema {
  const schemaNames = new Set(names.map((name) => errorResponses[name].schema));
  if (schemaNames.size > 1) throw new Error(`The errors ${names.join(', ')} share a status but not a schema.`);
  return {
    description: names.map((name) => errorResponses[name].description).join(' Or: '),
    headers: { 'X-Correlation-ID': CORRELATION_HEADER },
    content: {
      'application/json': {
        schema: schemas.output(schemaNamed(errorResponses[names[0]!].schema)),
        examples: Object.fromEntries(names.map((name) => [name, { value: errorResponses[name].example }])),
      },
    },
  };
}

function describeHeaders(headers: Readonly<Record<string, string>> | undefined): JsonSchema {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
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
