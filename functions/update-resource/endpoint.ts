import * as z from 'zod/mini';
import { MAX_UPDATE_ACTIONS, UpdateRequest, updateActionSchemas } from '../../shared/domain/update-actions';
import { MANAGE } from '../../shared/http/contract/access';
import { json, jsonBody } from '../../shared/http/contract/content';
import { PROJECT_KEY, RESOURCE_ID } from '../../shared/http/contract/path-parameters';
import { WRITE_ERRORS } from '../../shared/http/contract/resource-responses';
import { ResourceSchema } from '../../shared/http/contract/resource-schemas';
import { named } from '../../shared/http/contract/schema-names';
import { defineEndpoint, route } from '../../shared/http/declaration';

type UpdateActionSchema = (typeof updateActionSchemas)[keyof typeof updateActionSchemas];
const UpdateAction = named(
  'UpdateAction',
  z.discriminatedUnion('action', Object.values(updateActionSchemas) as [UpdateActionSchema, ...UpdateActionSchema[]]),
  'One update action; `setKey` (beyond the interface) sets the key, or removes it without `key`.',
);
for (const [action, schema] of Object.entries(updateActionSchemas)) named(`${action[0]!.toUpperCase()}${action.slice(1)}Action`, schema);

const UpdateRequestBody = named(
  'UpdateRequest',
  z.strictObject({ ...UpdateRequest.shape, actions: z.array(UpdateAction).check(z.maxLength(MAX_UPDATE_ACTIONS)) }),
  'Body of POST /{projectKey}/resource/{id}: the expected version and the actions, applied in order, all or nothing.',
);

/** POST /{projectKey}/resource/{id} (row 10): ordered update actions at an expected version. */
export const updateResource = defineEndpoint({
  name: 'update-resource',
  permissions: ['projects:read', 'projects:write'],
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource/{id}',
      access: MANAGE,
      body: 'json',
      rows: [10],
      summary: 'Apply update actions, in order, at the expected version.',
      pathParameters: { projectKey: PROJECT_KEY, id: RESOURCE_ID },
      tag: 'Resources',
      description: 'A request that changes the resource raises its version by exactly 1; one that changes nothing keeps it.',
      request: jsonBody(UpdateRequestBody),
      responses: { 200: { description: 'The resource after the actions.', content: json(ResourceSchema) } },
      errors: [...WRITE_ERRORS, 'NotFound'],
    }),
  ],
});
