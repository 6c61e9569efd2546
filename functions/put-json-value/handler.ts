import { endpoint, ok } from '../../shared/http/endpoint';
import { jsonValueService } from '../../shared/composition-root';

/** PUT /{projectKey}/resource/json-serializable-primitive-type — stores any JSON value and answers it. */
export const handler = endpoint('put-json-value', async ({ projectKey, body }) => ok(await jsonValueService().put(projectKey, body)));
