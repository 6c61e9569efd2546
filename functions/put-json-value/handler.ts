import { endpoint, ok } from '../../shared/http/endpoint';
import { extensionService } from '../../shared/services/extension-service';

/** PUT /{projectKey}/resource/json-serializable-primitive-type — stores any JSON value and answers it. */
export const handler = endpoint('put-json-value', async ({ projectKey, body }) =>
  ok(await extensionService().putJsonValue(projectKey, body)),
);
