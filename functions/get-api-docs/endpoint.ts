import { API_DOCS_ASSETS } from '../../shared/http/api-docs';
import { PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

const PAGE_FILE = { access: PUBLIC, body: 'none', pathParameters: {}, tag: 'API reference', errors: [] } as const;

/**
 * The API reference (no token): Swagger UI rendering /openapi.json from the service's own copies
 * of its two files (literal paths, so `/docs/<x>` never shadows a project's routes).
 */
export const getApiDocs = defineEndpoint({
  name: 'get-api-docs',
  // The page and its files ship with the function: no data, no keys.
  permissions: [],
  // Swagger UI's script and style sheet: the handler reads them next to its bundle (shared/http/api-docs.ts).
  filesBesideBundle: Object.keys(API_DOCS_ASSETS).map((name) => `node_modules/swagger-ui-dist/${name}`),
  routes: [
    route({
      ...PAGE_FILE,
      method: 'GET',
      path: '/docs',
      summary: 'The API reference page (Swagger UI).',
      responses: { 200: { description: 'An HTML page that renders /openapi.json.', content: { 'text/html': 'Text' } } },
    }),
    route({
      ...PAGE_FILE,
      method: 'GET',
      path: '/docs/swagger-ui-bundle.js',
      summary: 'Script of the API reference page.',
      responses: { 200: { description: 'A file of Swagger UI.', content: { 'text/javascript': 'Text' } } },
    }),
    route({
      ...PAGE_FILE,
      method: 'GET',
      path: '/docs/swagger-ui.css',
      summary: 'Style sheet of the API reference page.',
      responses: { 200: { description: 'A file of Swagger UI.', content: { 'text/css': 'Text' } } },
    }),
  ],
});
