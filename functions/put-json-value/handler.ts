import { endpoint, ok } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { idempotencyRecords, jsonValueService } from '../../shared/composition-root';
import { putJsonValue } from './endpoint';

/** PUT /{projectKey}/resource/json-serializable-primitive-type — stores any JSON value and answers it. */
export const handler = endpoint(putJsonValue, async ({ projectKey, body }) => ok(await jsonValueService().put(projectKey, body)), jsonBody, idempotencyKeys(idempotencyRecords));
