import * as z from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { ParameterSpec, ScalarType } from './parameters';
import { errorResponses, namedSchemas, pathParameters, routeSchemaOf, routeSchemas, tags, type Content, type ErrorResponseName, type ResponseSpec } from './route-schemas';
import { fallbackRoute, routes, type ProjectScope, type Route } from './routes';

/**
 * The OpenAPI 3.1 document of the service, built from the route table (paths, methods, summaries,
 * path and declared query parameters, scopes) and the zod schemas of route-schemas.ts (bodies and
 * answers, through `z.toJSONSchema`). `GET /openapi.json` serves it, `npm run openapi` writes it
 * to the repository, and a test keeps the two equal.
 */

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = JsonSchema & { openapi: '3.1.0'; paths: Record<string, Record<string, JsonSchema>> };

const SCHEMA_REF = '#/components/schemas/';
const RESPONSE_REF = '#/components/responses/';
const CORRELATION_HEADER = { $ref: '#/components/headers/X-Correlation-ID' };

/** What each project-bound scope opens, beyond the list of operations the document adds. */
const SCOPES: Record<ProjectScope, string> = {
  manage_test: 'Read and write the resources of the project (everything but the image upload)',
  view_test: 'Read the resources of the project',
  manage_products: 'Upload images to the product variants of the project',
};

export function buildOpenApiDocument(): OpenApiDocument {
  const operations = (routes as readonly Route[]).map((route) => ({ route, schema: routeSchemaOf(route) }));
  const inputs = operations.flatMap(({ route, schema }) => [
    ...Object.values(schema.request?.content ?? {}),
    ...Object.values(route.query ?? {}).flatMap((spec) => (spec.schema ? [spec.schema] : [])),
  ]);
  const outputs = [
    ...operations.flatMap(({ schema }) => Object.values(schema.responses).flatMap((response: ResponseSpec) => Object.values(response.content ?? {}))),
    ...Object.values(errorResponses).map((response) => response.schema),
  ];
  const schemas = new JsonSchemas(inputs.filter(isSchema), outputs.filter(isSchema));

  const paths: OpenApiDocument['paths'] = {};
  for (const { route, schema } of operations) {
    const methods = (paths[route.path] ??= {});
    const parameters = [
      ...pathParametersOf(route.path),
      ...Object.entries(route.query ?? {}).map(([name, spec]) => queryParameter(name, spec, schemas)),
      { $ref: '#/components/parameters/X-Correlation-ID' },
    ];
    const responses: Record<string, JsonSchema> = {};
    for (const [status, response] of Object.entries(schema.responses) as [string, ResponseSpec][]) {
      responses[status] = {
        description: response.description,
        headers: { 'X-Correlation-ID': CORRELATION_HEADER, ...describeHeaders(response.headers) },
        ...(response.content && route.method !== 'HEAD' ? { content: content(response.content, schemas.output, response.example) } : {}),
      };
    }
    const errors: ErrorResponseName[] = [
      ...schema.errors,
      ...(route.access.kind === 'project' ? (['Unauthorized', 'Forbidden'] as const) : []),
      'InternalServerError',
    ];
    for (const name of errors) {
      const { status, description } = errorResponses[name];
      if (responses[status]) throw new Error(`${route.method} ${route.path} answers ${status} twice (${name}).`);
      // HEAD answers carry no body, errors included.
      responses[status] = route.method === 'HEAD' ? { description, headers: { 'X-Correlation-ID': CORRELATION_HEADER } } : { $ref: `${RESPONSE_REF}${name}` };
    }

    methods[route.method.toLowerCase()] = {
      ...(schema.tag ? { tags: [schema.tag] } : {}),
      summary: route.summary,
      ...(schema.description ? { description: schema.description } : {}),
      operationId: operationIdOf(route),
      parameters,
      ...(schema.request
        ? {
            requestBody: {
              required: schema.request.required,
              ...(schema.request.description ? { description: schema.request.description } : {}),
              content: content(schema.request.content, schemas.input),
            },
          }
        : {}),
      responses,
      security: securityOf(route, schema.clientAuthentication),
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Generic Resource Service',
      version: packageJson.version,
      summary: 'A project-scoped HTTP API of the commercetools family: the `resource` collection of each project.',
      description: introduction(),
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
            headers: { 'X-Correlation-ID': CORRELATION_HEADER },
            content: { 'application/json': { schema: schemas.output(response.schema), example: response.example } },
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
      },
      headers: {
        'X-Correlation-ID': { description: "The request's correlation id (its own, or a new `projects-<uuid>`).", schema: { type: 'string' } },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials at `POST /oauth/token`; send the token as `Authorization: Bearer <token>`. Scopes are bound to a project: `<scope>:<projectKey>`, e.g. `manage_test:demo` opens `/demo/...` and no other project. Ask for no scope to get all of your client\'s scopes.',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: scopeDescriptions() } },
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

const isSchema = (schema: z.core.$ZodType | null): schema is z.core.$ZodType => schema !== null;

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
    if (!inline) throw new Error('A schema of route-schemas.ts was not collected for the document.');
    return inline;
  }

  /** components/schemas: each named schema as the side that uses it reads it. */
  components(): Record<string, JsonSchema> {
    const { input, output } = this.converted;
    const readByRequests = reachable(this.inputs.map((schema) => this.input(schema)), input.named);
    const readByAnswers = reachable(this.outputs.map((schema) => this.output(schema)), output.named);
    const components: Record<string, JsonSchema> = {};
    for (const id of Object.keys(output.named)) {
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
      [...namedSchemas.values()].map(({ id, description }) => [id, { ...clean(schemas[id]), ...(description === undefined ? {} : { description }) }]),
    ),
    inline: new Map([...inlineIds].map(([schema, id]) => [schema, clean(schemas[id])])),
  };
}

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
    Object.entries(media).map(([type, schema]) => [type, { ...(schema ? { schema: schemaOf(schema) } : {}), ...(example === undefined ? {} : { example }) }]),
  );
}

// ---- Parameters, security, names ---------------------------------------------------------------------

function pathParametersOf(path: string): JsonSchema[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const described = pathParameters[name as keyof typeof pathParameters];
    if (!described) throw new Error(`The path parameter ${name} of ${path} is not described in route-schemas.ts.`);
    return {
      name,
      in: 'path',
      required: true,
      description: described.description,
      schema: { type: 'string', ...(described.pattern ? { pattern: described.pattern } : {}) },
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
      return { type: 'string' };
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
        contentSchema: spec.schema ? schemas.input(spec.schema) : { type: 'object' },
      };
  }
}

function securityOf(route: Route, clientAuthentication: 'basic' | undefined): JsonSchema[] {
  if (route.access.kind === 'project') return route.access.anyOf.map((scope) => ({ oauth2: [`${scope}:{projectKey}`] }));
  return clientAuthentication === 'basic' ? [{ clientBasic: [] }] : [];
}

function scopeDescriptions(): Record<string, string> {
  return Object.fromEntries(
    (Object.entries(SCOPES) as [ProjectScope, string][]).map(([scope, what]) => {
      const opened = (routes as readonly Route[])
        .filter((route) => route.access.kind === 'project' && route.access.anyOf.includes(scope))
        .map(routeName);
      return [`${scope}:{projectKey}`, `${what}: ${opened.join(', ')}.`];
    }),
  );
}

function describeHeaders(headers: Readonly<Record<string, string>> | undefined): JsonSchema {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
}

const routeName = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The handler's name in camelCase; handlers serving several routes add the method and last segment. */
function operationIdOf(route: Route): string {
  const shared = (routes as readonly Route[]).filter((candidate) => candidate.handler === route.handler).length > 1;
  const words = [route.handler, ...(shared ? [route.method, route.path.split('/').pop()!] : [])].join('-').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase())).join('');
}

function introduction(): string {
  const fallback = routeSchemas[fallbackRoute.handler as 'route-not-found'];
  const unknownRoutes = (typeof fallback === 'function' ? [] : fallback.errors)
    .map((name) => `${errorResponses[name].status} \`${errorResponses[name].example.errors[0]!.code}\``)
    .join(' or ');
  return [
    'Inside one project (`/{projectKey}/...`) the service keeps a collection called `resource`: query it (where, sort, paging), check for matches, search it, create, read, overwrite, update with ordered actions at an expected version, and delete; upload images to product variants; call extension actions.',
    '',
    '**Authentication**: OAuth 2.0 client credentials at `POST /oauth/token` (HTTP Basic), then `Authorization: Bearer <token>`. Scopes are bound to a project: `manage_test:<projectKey>`, `view_test:<projectKey>`, `manage_products:<projectKey>`.',
    '',
    '**Errors** always answer in the commercetools shape `{statusCode, message, errors: [{code, message, ...}]}` (see the ErrorResponse schema); HEAD answers have no body.',
    '',
    `**Unknown routes** answer ${unknownRoutes}. Every answer carries \`X-Correlation-ID\`.`,
  ].join('\n');
}
