import { endpoint, ok } from '../../shared/http/endpoint';
import { subscriptionService } from '../../shared/composition-root';
import { deleteSubscription } from './endpoint';

// TODO(idempotency): opt in to the Idempotency-Key middleware here once it lands.
/** DELETE /{projectKey}/subscriptions/{idOrKey}?version=n — answers the deleted subscription. */
export const handler = endpoint(deleteSubscription, async ({ projectKey, path, query }) =>
  ok(await subscriptionService().delete(projectKey, path.idOrKey, query.number('version', { integer: true, min: 1 }))),
);
