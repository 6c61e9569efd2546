import { endpoint, ok } from '../../shared/http/endpoint';
import { subscriptionService } from '../../shared/composition-root';
import { getSubscriptions } from './endpoint';

/** GET /{projectKey}/subscriptions[/{idOrKey}] — a page, or one subscription. */
export const handler = endpoint(getSubscriptions, async ({ projectKey, path, query }) =>
  ok(path.idOrKey === undefined ? await subscriptionService().list(projectKey, query) : await subscriptionService().read(projectKey, path.idOrKey)),
);
