import { endpoint, ok } from '../../shared/http/endpoint';
import { resourceService } from '../../shared/composition-root';
import { getResource } from './endpoint';

/** GET /{projectKey}/resource/{id} and GET /{projectKey}/resource/key={key} — one resource, or 404. */
export const handler = endpoint(getResource, async ({ projectKey, path }) =>
  ok(await resourceService().read(projectKey, path.id)),
);
