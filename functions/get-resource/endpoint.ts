import { PROJECT_KEY, READ, RESOURCE, RESOURCE_ID } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/**
 * GET /{projectKey}/resource/{id} and GET /{projectKey}/resource/key={key}: API Gateway cannot
 * route the partial segment `key={key}`, so the read by key shares the `{id}` route and the
 * handler dispatches on the `key=` prefix. HEAD answers the same without the body.
 */
const read = {
  path: '/{projectKey}/resource/{id}',
  access: READ,
  body: 'none',
  pathParameters: { projectKey: PROJECT_KEY, id: RESOURCE_ID },
  query: { optionalQueryParameter: { type: 'string' }, secondOptionalQueryParameter: { type: 'string' } },
  tag: 'Resources',
  errors: ['NotFound', 'ServiceUnavailable'],
} as const;

export const getResource = defineEndpoint({
  name: 'get-resource',
  permissions: ['projects:read'],
  routes: [
    route({ ...read, method: 'GET', summary: 'Read a resource by id, or by key with the segment `key=<key>`.', responses: { 200: RESOURCE } }),
    // RFC 9110 §9.1: HEAD wherever GET is served — the same answer without its body.
    route({
      ...read,
      method: 'HEAD',
      summary: 'Whether a resource exists, by id or by key: the GET without its body.',
      responses: { 200: { description: 'The resource exists (no body).' } },
    }),
  ],
});
