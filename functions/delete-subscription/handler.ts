import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { idempotencyRecords, subscriptionService } from '../../shared/composition-root';
import { deleteSubscription } from './endpoint';

/** DELETE /{projectKey}/subscriptions/{idOrKey}?version=n — answers the deleted subscription. */
export const handler = endpoint(deleteSubscription, async ({ projectKey, path, query }) =>
  ok(await subscriptionService().delete(projectKey, path.idOrKey, query.number('version', { integer: true, min: 1 }))),
  undefined,
  idempotencyKeys(idempotencyRecords),
);
