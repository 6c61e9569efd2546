import { endpoint } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { jsonBody } from '../../shared/http/json-body-pipeline';
import { complexPathService, idempotencyRecords } from '../../shared/composition-root';
import { postComplexPath } from './endpoint';

/**
 * POST /{projectKey}/resource/artificially-complex/path/uri-parameter-one={one}/{two} — stores the
 * OutOfOrderPropertiesTestType under (one, two) and answers the named resource's objectTypeProperty:
 * 201 new, 200 replaced, 203 when the body's version is not the resource's current one.
 */
export const handler = endpoint(postComplexPath, async ({ projectKey, path, body }) => {
  const { statusCode, objectTypeProperty } = await complexPathService().post(projectKey, path, body);
  return { statusCode, body: objectTypeProperty };
}, jsonBody, idempotencyKeys(idempotencyRecords));
