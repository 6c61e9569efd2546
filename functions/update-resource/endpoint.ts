import { json, jsonBody, MANAGE, PROJECT_KEY, RESOURCE_ID, WRITE_ERRORS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** POST /{projectKey}/resource/{id}: ordered update actions at an expected version. */
export const updateResource = defineEndpoint({
  name: 'update-resource',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource/{id}',
      access: MANAGE,
      body: 'json',
      summary: 'Apply update actions, in order, at the expected version.',
      pathParameters: { projectKey: PROJECT_KEY, id: RESOURCE_ID },
      tag: 'Resources',
      description: 'A request that changes the resource raises its version by exactly 1; one that changes nothing keeps it.',
      request: jsonBody('UpdateRequest'),
      responses: { 200: { description: 'The resource after the actions.', content: json('ObjectTestType') } },
      errors: [...WRITE_ERRORS, 'NotFound'],
    }),
  ],
});
