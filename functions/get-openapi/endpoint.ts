import { json, PUBLIC } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** GET /openapi.json: the OpenAPI document of this API. */
export const getOpenApi = defineEndpoint({
  name: 'get-openapi',
  // The document ships with the function: no data, no keys.
  permissions: [],
  filesBesideBundle: ['openapi.json'],
  routes: [
    route({
      method: 'GET',
      path: '/openapi.json',
      access: PUBLIC,
      body: 'none',
      summary: 'The OpenAPI 3.1 document of this API.',
      pathParameters: {},
      tag: 'API reference',
      responses: { 200: { description: 'This document.', content: json('JsonObject') } },
      errors: [],
    }),
  ],
});
