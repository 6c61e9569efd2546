import { json, jsonBody, MANAGE_SUBSCRIPTIONS, PROJECT_KEY } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/** POST /{projectKey}/subscriptions: a new change subscription (docs/subscriptions.md). */
export const createSubscription = defineEndpoint({
  name: 'create-subscription',
  permissions: ['projects:read', 'projects:write'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/subscriptions',
      access: MANAGE_SUBSCRIPTIONS,
      body: 'json',
      summary: 'Subscribe a destination to every change of the project\'s resources.',
      pathParameters: { projectKey: PROJECT_KEY },
      tag: 'Subscriptions',
      description: 'Destinations: `HTTP` (a webhook; the answer carries its `signingSecret` once), `SQS`, `SNS`, `EventBridge`. Message subscriptions are not supported.',
      request: jsonBody('SubscriptionDraft'),
      responses: { 201: { description: 'The new subscription, version 1.', content: json('Subscription') } },
      errors: ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
