import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT_BYTES, LOCAL_HEADER_LIMIT_BYTES } from '../../shared/domain/limits';
import { swaggerUiDist } from '../../shared/http/api-docs';
import { baseUrl, call, draftExample, tokenFor, uniqueKey } from './api-client';

/** The API reference as an API user reaches it: no token, the service's own origin. */
describe('GET /openapi.json', () => {
  it('answers the committed OpenAPI document without a token', async () => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-correlation-id')).toBeTruthy();
    expect(await response.json()).toEqual(JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')));
  });
});

describe('GET /docs', () => {
  it('answers the HTML page with a strict Content-Security-Policy', async () => {
    const response = await fetch(`${baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<div id="swagger-ui"></div>');
  });

  it.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
  ])('serves Swagger UI\'s %s itself', async (name, contentType) => {
    const response = await fetch(`${baseUrl}/docs/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(await response.text()).toBe(readFileSync(join(swaggerUiDist()[0]!, name), 'utf8'));
  });

  it('serves no other file', async () => {
    for (const path of ['/docs/swagger-ui-standalone-preset.js', '/docs/index.html', '/docs/..%2Fpackage.json']) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('NotFound');
    }
  });
});

/**
 * The document against the service's answers: each refusal below is answered as the document
 * declares it on that operation — the status, and an error code one of its examples shows.
 */
describe('refusals as the document declares them', () => {
  const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
  /** The error codes the document shows for this operation and status (its examples). */
  const documentedCodes = (method: string, path: string, status: number): string[] => {
    let response = document.paths[path]?.[method.toLowerCase()]?.responses?.[status];
    if (response?.$ref) response = document.components.responses[response.$ref.split('/').pop()];
    const media = response?.content?.['application/json'] ?? {};
    const examples = media.examples ? Object.values(media.examples).map((example: any) => example.value) : [media.example];
    return examples.flatMap((example: any) => (example?.errors ?? []).map((error: { code: string }) => error.code));
  };

  it.each([
    ['400 bad query parameter', 'GET', '/{projectKey}/resource', '/demo/resource?limit=ten', {}, 400],
    ['401 no token', 'GET', '/{projectKey}/resource', '/demo/resource', { token: false }, 401],
    ['403 another project', 'GET', '/{projectKey}/resource', '/not-mine/resource', {}, 403],
    ['404 no such resource', 'GET', '/{projectKey}/resource/{id}', `/demo/resource/${crypto.randomUUID()}`, {}, 404],
    ['413 body over the limit', 'POST', '/{projectKey}/resource', '/demo/resource', { json: { key: 'k', objectTypeProperty: { pad: 'x'.repeat(JSON_BODY_LIMIT_BYTES) } } }, 413],
    ['415 not JSON', 'POST', '/{projectKey}/resource', '/demo/resource', { body: 'key=k', headers: { 'content-type': 'text/plain' } }, 415],
    ['400 a search naming no field of the resource', 'POST', '/{projectKey}/resource/search', '/demo/resource/search', { json: { query: { exists: { field: 'colour' } } } }, 400],
    ['431 a URL over the limit', 'GET', '/{projectKey}/resource', `/demo/resource?where=${'x'.repeat(LOCAL_HEADER_LIMIT_BYTES + 1)}`, {}, 431],
  ] as const)('%s', async (_name, method, path, concrete, options: { token?: false; json?: unknown; body?: string; headers?: Record<string, string> }, status) => {
    const token = options.token === false ? undefined : await tokenFor();
    const answer = await call(method, concrete, { token, json: options.json, body: options.body, headers: options.headers });
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ statusCode: status, message: answer.body.errors[0].message });
    expect(documentedCodes(method, path, status)).toContain(answer.body.errors[0].code);
  });

  it('409 at a stale version and 422 for a reused Idempotency-Key', async () => {
    const token = await tokenFor();
    const { id } = (await call('POST', '/demo/resource', { token, json: draftExample })).body;
    const update = { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: uniqueKey() }] };
    await call('POST', `/demo/resource/${id}`, { token, json: update });
    const stale = await call('POST', `/demo/resource/${id}`, { token, json: update });
    expect(stale.status).toBe(409);
    expect(documentedCodes('POST', '/{projectKey}/resource/{id}', 409)).toContain(stale.body.errors[0].code);

    const headers = { 'idempotency-key': uniqueKey() };
    await call('DELETE', `/demo/resource/${id}?version=2`, { token, headers });
    const reused = await call('DELETE', `/demo/resource/${id}?version=3`, { token, headers });
    expect(reused.status).toBe(422);
    expect(documentedCodes('DELETE', '/{projectKey}/resource/{id}', 422)).toContain(reused.body.errors[0].code);
  });
});
