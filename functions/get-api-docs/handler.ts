import { API_DOCS_ASSETS, API_DOCS_CSP, API_DOCS_HTML, isApiDocsAsset, readApiDocsAsset } from '../../shared/http/api-docs';
import { endpoint } from '../../shared/http/endpoint';
import { notFoundRoute } from '../../shared/http/errors';
import { getApiDocs } from './endpoint';

/**
 * GET /docs — the API reference page (Swagger UI), and GET /docs/swagger-ui-bundle.js and
 * /docs/swagger-ui.css, its two files. Not JSON: raw bodies with their own content types.
 */
export const handler = endpoint(getApiDocs, async ({ route, method, rawPath }) => {
  const headers = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
  if (route.path === '/docs') {
    return {
      statusCode: 200,
      rawBody: API_DOCS_HTML,
      headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'Content-Security-Policy': API_DOCS_CSP, 'Cache-Control': 'no-cache' },
    };
  }
  const asset = route.path.split('/').pop()!;
  if (!isApiDocsAsset(asset)) throw notFoundRoute(method, rawPath);
  return { statusCode: 200, rawBody: readApiDocsAsset(asset), headers: { ...headers, 'content-type': API_DOCS_ASSETS[asset], 'Cache-Control': 'public, max-age=3600' } };
});
