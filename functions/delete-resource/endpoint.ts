import { json, MANAGE, PROJECT_KEY, RESOURCE_ID } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** DELETE /{projectKey}/resource/{id}: delete a resource, at an expected version when one is given. */
export const deleteResource = defineEndpoint({
  name: 'delete-resource',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'DELETE',
      path: '/{projectKey}/resource/{id}',
      access: MANAGE,
      body: 'none',
      summary: 'Delete a resource (optionally at an expected version).',
      pathParameters: { projectKey: PROJECT_KEY, id: RESOURCE_ID },
      query: { version: { type: 'integer', min: 1 } },
      tag: 'Resources',
      description: 'Its key becomes free again.',
      responses: { 200: { description: 'The deleted resource.', content: json('ObjectTestType') } },
      errors: ['BadRequest', 'NotFound', 'Conflict', 'ServiceUnavailable'],
    }),
  ],
});
