import { READ } from '../../shared/http/contract/access';
import { PROJECT_KEY, RESOURCE_ID } from '../../shared/http/contract/path-parameters';
import { RESOURCE } from '../../shared/http/contract/resource-responses';
import { defineEndpoint, route } from '../../shared/http/declaration';

/**
 * GET /{projectKey}/resource/{id} (row 2) and GET /{projectKey}/resource/key={key} (row 3): API
 * Gateway cannot route the partial segment `key={key}`, so row 3 shares the `{id}` route and the
 * handler dispatches on the `key=` prefix.
 */
export const getResource = defineEndpoint({
  name: 'get-resource',
  permissions: ['projects:read'],
  routes: [
    route({
      method: 'GET',
      path: '/{projectKey}/resource/{id}',
      access: READ,
      body: 'none',
      rows: [2, 3],
      summary: 'Read a resource by id, or by key with the segment `key=<key>`.',
      pathParameters: { projectKey: PROJECT_KEY, id: RESOURCE_ID },
      query: { optionalQueryParameter: { type: 'string' }, secondOptionalQueryParameter: { type: 'string' } },
      tag: 'Resources',
      responses: { 200: RESOURCE },
      errors: ['NotFound', 'ServiceUnavailable'],
    }),
  ],
});
