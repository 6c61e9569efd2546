import { created, endpoint } from '../../shared/http/endpoint';
import { idempotencyKeys } from '../../shared/http/idempotency-keys';
import { idempotencyRecords, uploadTicketService } from '../../shared/composition-root';
import { startImageUpload } from './endpoint';

/** POST /{projectKey}/resource/images/uploads — check the upload's parameters and answer a presigned S3 PUT URL. */
export const handler = endpoint(startImageUpload, async ({ projectKey, query }) => created(await uploadTicketService().startUpload(projectKey, query)), undefined, idempotencyKeys(idempotencyRecords));
