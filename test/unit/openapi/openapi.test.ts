import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ObjectTestType, ObjectTestTypeDraft } from '../../../shared/domain/resource';
import { endpoints, fallback } from '../../../functions/endpoints';
import { errorResponses } from '../../../shared/http/contract/error-responses';
import { documentSchemas } from '../../../shared/http/contract/schemas';
import type { RouteDeclaration as Route } from '../../../shared/http/declaration';
import { buildOpenApiDocument, serializeOpenApi } from '../../../shared/http/openapi';
import { routeTableOf } from '../../../shared/http/route-table';

const routes: readonly Route[] = endpoints.flatMap((endpoint) => endpoint.routes);
const document = buildOpenApiDocument(endpoints, fallback);
const operation = (route: Pick<Route, 'method' | 'path'>) => document.paths[route.path]?.[route.method.toLowerCase()] as any;
const components = (document as any).components;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator does refuse a broken document', async () => {
    const { info: _info, ...broken } = structuredClone(document);
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every route of the route table, with its method and summary, and nothing else', () => {
    for (const route of routes) {
      expect(operation(route), `${route.method} ${route.path}`).toBeDefined();
      expect(operation(route).summary).toBe(route.summary);
    }
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('gives every operation a unique operationId', () => {
    const ids = routes.map((route) => operation(route).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares the path parameters of every {segment}', () => {
    for (const route of routes) {
      const declared = operation(route).parameters.filter((parameter: any) => parameter.in === 'path').map((parameter: any) => parameter.name);
      expect(declared).toEqual([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));
      for (const parameter of operation(route).parameters.filter((candidate: any) => candidate.in === 'path')) {
        expect(parameter.required).toBe(true);
        expect(parameter.description).toBeTruthy();
      }
    }
  });

  it('declares the query parameters of the route table with their types, bounds and repetition', () => {
    for (const route of routes) {
      const query = operation(route).parameters.filter((parameter: any) => parameter.in === 'query');
      expect(query.map((parameter: any) => parameter.name)).toEqual(Object.keys(route.query ?? {}));
    }
    const get = operation({ method: 'GET', path: '/{projectKey}/resource' });
    const byName = (name: string) => get.parameters.find((parameter: any) => parameter.name === name);
    expect(byName('limit').schema).toEqual({ type: 'integer', minimum: 0, maximum: 500 });
    expect(byName('where')).toMatchObject({ schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true });
    expect(byName('withTotal').schema).toEqual({ type: 'boolean' });
    expect(byName('unionParameter').schema.anyOf).toEqual([
      { type: 'number' },
      { type: 'string', format: 'date-time' },
      { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/InterfaceObjectTestType' } },
    ]);
  });

  it('secures project routes with project-bound OAuth 2.0 scopes and answers 401 and 403 there', () => {
    const scheme = components.securitySchemes.oauth2;
    expect(scheme.flows.clientCredentials.tokenUrl).toBe('/oauth/token');
    // Each template, and a concrete example of it beside it.
    expect(Object.keys(scheme.flows.clientCredentials.scopes)).toEqual([
      'manage_test:{projectKey}',
      'manage_test:demo',
      'view_test:{projectKey}',
      'view_test:demo',
      'manage_products:{projectKey}',
      'manage_products:demo',
      'introspect_oauth_tokens:{projectKey}',
      'introspect_oauth_tokens:demo',
      'manage_subscriptions:{projectKey}',
      'manage_subscriptions:demo',
      'view_subscriptions:{projectKey}',
      'view_subscriptions:demo',
    ]);
    for (const route of routes) {
      const { security, responses } = operation(route);
      if (route.access.kind === 'project') {
        expect(security).toEqual(route.access.anyOf.map((scope) => ({ oauth2: [`${scope}:{projectKey}`] })));
        expect(responses).toHaveProperty('401');
        expect(responses).toHaveProperty('403');
      } else {
        expect(security.every((requirement: object) => !('oauth2' in requirement))).toBe(true);
        expect(responses).not.toHaveProperty('403');
      }
    }
    expect(operation({ method: 'POST', path: '/oauth/token' }).security).toEqual([{ clientBasic: [] }]);
    expect(operation({ method: 'GET', path: '/openapi.json' }).security).toEqual([]);
  });

  it('takes its bodies from the zod schemas that validate the requests and type the answers', () => {
    // Named schemas nested in others are referred to; the rest is zod's own conversion.
    const { properties: draftFields, $schema: _dialect, ...draft } = z.toJSONSchema(ObjectTestTypeDraft, { io: 'input' }) as any;
    expect(components.schemas.ObjectTestTypeDraft).toEqual({
      ...draft,
      properties: { ...draftFields, objectTypeProperty: { $ref: '#/components/schemas/ArrayTestType' } },
      description: expect.any(String),
    });
    const post = operation({ method: 'POST', path: '/{projectKey}/resource' });
    expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ObjectTestTypeDraft' });
    expect(post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ObjectTestType' });
    const { objectTypeProperty: _nested, ...fields } = (z.toJSONSchema(ObjectTestType, { io: 'output' }) as any).properties;
    expect(components.schemas.ObjectTestType.properties).toEqual({ ...fields, objectTypeProperty: { $ref: '#/components/schemas/ArrayTestType' } });
  });

  it("leaves zod's global registry as it found it: the domain's schemas convert without the document's names", () => {
    buildOpenApiDocument(endpoints, fallback);
    expect(z.globalRegistry.get(ObjectTestType)?.id).toBeUndefined();
    expect(JSON.stringify(z.toJSONSchema(ObjectTestTypeDraft, { io: 'input' }))).not.toContain('$ref');
  });

  it('documents the paged query, the search with facets, the variant and the update actions', () => {
    const schemas = components.schemas;
    expect(Object.keys(schemas.PagedQueryResult.properties)).toEqual(['limit', 'offset', 'count', 'total', 'results']);
    expect(schemas.PagedQueryResult.required).toEqual(['limit', 'offset', 'count', 'results']);
    expect(schemas.SearchResult.properties.facets.additionalProperties).toEqual({ $ref: '#/components/schemas/FacetResult' });
    expect(schemas.FacetResult.oneOf).toHaveLength(3);
    expect(schemas.Variant.required).toEqual(['id', 'images', 'stagedImages']);
    expect(schemas.UpdateRequest.properties.actions.items).toEqual({ $ref: '#/components/schemas/UpdateAction' });
    const upload = operation({ method: 'POST', path: '/{projectKey}/resource/images' });
    expect(Object.keys(upload.requestBody.content)).toEqual(['image/jpeg', 'image/png', 'image/gif']);
    expect(upload.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Variant' });
  });

  it('documents 429 (API Gateway throttling) on every route', () => {
    for (const route of routes as readonly Route[]) {
      const { responses } = operation(route);
      expect(responses['429'], `${route.method} ${route.path}`).toEqual(
        route.method === 'HEAD' ? expect.objectContaining({ description: expect.stringContaining('throttles') }) : { $ref: '#/components/responses/TooManyRequests' },
      );
    }
    expect(components.responses.TooManyRequests.content['application/json'].example).toEqual({ message: 'Too Many Requests' });
  });

  it('documents 431 (request line and headers over the limit) on every route', () => {
    for (const route of routes as readonly Route[]) {
      expect(operation(route).responses['431'], `${route.method} ${route.path}`).toBeDefined();
    }
  });

  it('documents the Idempotency-Key header, 409 and 422 exactly on the routes that take it: every write under /{projectKey}/resource and /{projectKey}/subscriptions', () => {
    for (const { route, endpoint } of routeTableOf(endpoints)) {
      const takesKey = endpoint.idempotencyKey === true;
      const operationOf = operation(route);
      const where = `${route.method} ${route.path}`;
      expect(operationOf.parameters.some((parameter: { $ref?: string }) => parameter.$ref === '#/components/parameters/Idempotency-Key'), where).toBe(takesKey);
      expect(operationOf.responses['422'] !== undefined, where).toBe(takesKey);
      const writesResources = /^\/\{projectKey\}\/(resource|subscriptions)/.test(route.path) && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
      // Extension actions (POST namespace-action) call the project's own function: its effects are the extension's.
      // POST …/resource/search writes nothing: its body is a search request.
      if (!route.path.endsWith('/namespace-action') && !route.path.endsWith('/resource/search')) expect(takesKey, where).toBe(writesResources);
    }
  });

  it('describes errors in the commercetools shape, with examples that fit it', () => {
    expect(components.schemas.ErrorResponse.required).toEqual(['statusCode', 'message', 'errors']);
    for (const [name, response] of Object.entries(errorResponses) as [string, (typeof errorResponses)[keyof typeof errorResponses]][]) {
      const example = components.responses[name].content['application/json'].example;
      // 429 is API Gateway's own answer, in its own shape.
      if (name !== 'TooManyRequests') expect(example.statusCode, name).toBe(response.status);
      expect(documentSchemas[response.schema].schema.safeParse(example).success, name).toBe(true);
    }
    const update = operation({ method: 'POST', path: '/{projectKey}/resource/{id}' });
    expect(Object.keys(update.responses)).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '431', '500', '503']);
    expect(operation({ method: 'GET', path: '/{projectKey}/resource/{id}' }).responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    // Errors sharing a status are one answer: each described, each with its example.
    expect(update.responses['409'].description).toContain('`ConcurrentModification`');
    expect(update.responses['409'].description).toContain('Idempotency-Key');
    expect(Object.keys(update.responses['409'].content['application/json'].examples)).toEqual(['Conflict', 'IdempotencyKeyInFlight']);
    // HEAD answers have no body, errors included.
    const head = operation({ method: 'HEAD', path: '/{projectKey}/resource' });
    for (const response of Object.values(head.responses)) expect(response).not.toHaveProperty('content');
  });

  it('is committed as openapi.json, up to date (run `npm run openapi` after changing the API)', () => {
    const committed = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8');
    expect(committed === serializeOpenApi(document), 'openapi.json is stale: run `npm run openapi`').toBe(true);
  });
});
