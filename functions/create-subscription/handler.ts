import { created, endpoint } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { idempotencyRecords, subscriptionService } from '../../shared/composition-root';
import { createSubscription } from './endpoint';

/** POST /{projectKey}/subscriptions — 201 with the new subscription. */
export const handler = endpoint(createSubscription, async ({ projectKey, body }) => created(await subscriptionService().create(projectKey, body)), jsonBody, idempotencyKeys(idempotencyRecords));
