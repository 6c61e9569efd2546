import { CREATED, json, jsonBody, MANAGE, PROJECT_KEY, WRITE_ERRORS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** POST /{projectKey}/resource: create, or update in place the resource the draft's key names. */
export const createResource = defineEndpoint({
  name: 'create-resource',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource',
      access: MANAGE,
      body: 'json',
      summary: 'Create a resource; a draft whose key exists updates that resource in place.',
      pathParameters: { projectKey: PROJECT_KEY },
      tag: 'Resources',
      request: jsonBody('ObjectTestTypeDraft'),
      responses: { 201: CREATED, 200: { description: 'The draft\'s key existed: that resource, updated in place (version + 1).', content: json('ObjectTestType') } },
      errors: WRITE_ERRORS,
    }),
  ],
});
