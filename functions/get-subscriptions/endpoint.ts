import { json, PAGED_QUERY, PROJECT_KEY, SUBSCRIPTION_ID, VIEW_SUBSCRIPTIONS } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';

/**
 * GET /{projectKey}/subscriptions (a page) and GET /{projectKey}/subscriptions/{idOrKey}: API
 * Gateway cannot route a partial segment, so `key=<key>` shares the `{idOrKey}` route.
 */
const read = { method: 'GET', access: VIEW_SUBSCRIPTIONS, body: 'none', rows: [], tag: 'Subscriptions' } as const;

export const getSubscriptions = defineEndpoint({
  name: 'get-subscriptions',
  permissions: ['projects:read'],
  routes: [
    route({
      ...read,
      path: '/{projectKey}/subscriptions',
      summary: 'A page of the project\'s subscriptions, oldest first.',
      pathParameters: { projectKey: PROJECT_KEY },
      query: { limit: PAGED_QUERY.limit, offset: PAGED_QUERY.offset },
      responses: { 200: { description: 'A page of subscriptions.', content: json('SubscriptionPagedQueryResponse') } },
      errors: ['BadRequest', 'ServiceUnavailable'],
    }),
    route({
      ...read,
      path: '/{projectKey}/subscriptions/{idOrKey}',
      summary: 'A subscription by id, or by key with the segment `key=<key>`.',
      pathParameters: { projectKey: PROJECT_KEY, idOrKey: SUBSCRIPTION_ID },
      responses: { 200: { description: 'The subscription.', content: json('Subscription') } },
      errors: ['NotFound', 'ServiceUnavailable'],
    }),
  ],
});
