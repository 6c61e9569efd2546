import { json, MANAGE_SUBSCRIPTIONS, PROJECT_KEY, SUBSCRIPTION_ID } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** DELETE /{projectKey}/subscriptions/{idOrKey}?version=: its parked notifications go with it. */
export const deleteSubscription = defineEndpoint({
  name: 'delete-subscription',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'DELETE',
      path: '/{projectKey}/subscriptions/{idOrKey}',
      access: MANAGE_SUBSCRIPTIONS,
      body: 'none',
      summary: 'Delete a subscription (by id, or `key=<key>`) at its current version.',
      pathParameters: { projectKey: PROJECT_KEY, idOrKey: SUBSCRIPTION_ID },
      query: { version: { type: 'integer', min: 1, description: 'The current version (required)' } },
      tag: 'Subscriptions',
      responses: { 200: { description: 'The deleted subscription.', content: json('Subscription') } },
      errors: ['BadRequest', 'NotFound', 'Conflict', 'ServiceUnavailable'],
    }),
  ],
});
