import { json, jsonBody, MANAGE, PROJECT_KEY, WRITE_ERRORS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** PATCH /{projectKey}/resource: overwrite the resource the draft's key names. */
export const overwriteResource = defineEndpoint({
  name: 'overwrite-resource',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'PATCH',
      path: '/{projectKey}/resource',
      access: MANAGE,
      body: 'json',
      summary: 'Overwrite the resource named by the draft key.',
      pathParameters: { projectKey: PROJECT_KEY },
      tag: 'Resources',
      description: 'The draft must carry `key`; a `version` in it must match.',
      request: jsonBody('ObjectTestTypeDraft'),
      responses: { 200: { description: 'The overwritten resource (version + 1).', content: json('ObjectTestType') } },
      errors: [...WRITE_ERRORS, 'NotFound'],
    }),
  ],
});
