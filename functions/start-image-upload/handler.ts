import { created, endpoint } from '../../shared/http/endpoint';
import { uploadTicketService } from '../../shared/composition-root';
import { startImageUpload } from './endpoint';

/** POST /{projectKey}/resource/images/uploads — check the upload's parameters and answer a presigned S3 PUT URL. */
export const handler = endpoint(startImageUpload, async ({ projectKey, query }) => created(await uploadTicketService().startUpload(projectKey, query)));
