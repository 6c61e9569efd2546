import { CREATED, json, jsonBody, MANAGE, PROJECT_KEY, WRITE_ERRORS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** PUT /{projectKey}/resource: create, or overwrite the resource the draft's key names. */
export const putResource = defineEndpoint({
  name: 'put-resource',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'PUT',
      path: '/{projectKey}/resource',
      access: MANAGE,
      body: 'json',
      summary: 'Create a resource, or overwrite the one named by the draft key.',
      pathParameters: { projectKey: PROJECT_KEY },
      tag: 'Resources',
      request: jsonBody('ObjectTestTypeDraft'),
      responses: { 201: CREATED, 200: { description: 'The draft\'s key existed: that resource, overwritten (version + 1).', content: json('ObjectTestType') } },
      errors: WRITE_ERRORS,
    }),
  ],
});
