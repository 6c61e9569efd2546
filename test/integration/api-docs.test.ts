import { describe, expect, it } from 'vitest';
import { endpoints } from '../../functions/endpoints';
import type { RouteDeclaration as Route } from '../../shared/http/declaration';
import { renderedDom } from '../support/chromium';
import { baseUrl } from './api-client';

const routes: readonly Route[] = endpoints.flatMap((endpoint) => endpoint.routes);

/**
 * The API reference page in a real browser: Debian's headless Chromium loads `/docs` from the
 * local stack (Swagger UI and the document come from the service itself; the browser has no
 * internet), runs its scripts under the page's Content-Security-Policy, and dumps the DOM.
 */
const unescapeHtml = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

describe('the API reference page in headless Chromium', () => {
  it('renders every endpoint of the route table with its method and summary', { timeout: 120_000 }, async () => {
    const dom = await renderedDom(`${baseUrl}/docs`);

    // Each operation: a block classed by its method, holding its path (data-path) and its summary.
    const operations = [...dom.matchAll(/class="opblock opblock-(\w+)[\s\S]*?data-path="([^"]*)"[\s\S]*?class="opblock-summary-description">([^<]*)</g)].map(
      ([, method, path, summary]) => ({ method: method!.toUpperCase(), path: unescapeHtml(path!), summary: unescapeHtml(summary!) }),
    );
    expect(operations.length, 'Swagger UI rendered no operations: did the page load its script and /openapi.json?').toBeGreaterThan(0);
    expect(operations).toContainEqual({ method: 'GET', path: '/{projectKey}/resource/{id}', summary: expect.stringContaining('Read a resource by id') });
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      (routes as readonly Route[]).map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const route of routes as readonly Route[]) {
      expect(operations.find(({ method, path }) => method === route.method && path === route.path)?.summary).toBe(route.summary);
    }
  });
});
