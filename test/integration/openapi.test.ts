import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { swaggerUiDist } from '../../shared/http/api-docs';
import { baseUrl } from './api-client';

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
