import { created, endpoint } from '../../shared/http/endpoint';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { subscriptionService } from '../../shared/composition-root';
import { createSubscription } from './endpoint';

// TODO(idempotency): opt in to the Idempotency-Key middleware here once it lands.
/** POST /{projectKey}/subscriptions — 201 with the new subscription. */
export const handler = endpoint(createSubscription, async ({ projectKey, body }) => created(await subscriptionService().create(projectKey, body)), jsonBody);
