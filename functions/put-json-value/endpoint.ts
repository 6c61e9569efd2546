import { json, jsonBody, MANAGE, PROJECT_KEY } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** PUT /{projectKey}/resource/json-serializable-primitive-type: any JSON value, stored per project. */
export const putJsonValue = defineEndpoint({
  name: 'put-json-value',
  permissions: ['projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'PUT',
      path: '/{projectKey}/resource/json-serializable-primitive-type',
      access: MANAGE,
      body: 'json',
      summary: 'Store any JSON value for the project and answer it.',
      pathParameters: { projectKey: PROJECT_KEY },
      tag: 'Extensions',
      request: jsonBody('JsonValue'),
      responses: { 200: { description: 'The stored value.', content: json('JsonValue') } },
      errors: ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
