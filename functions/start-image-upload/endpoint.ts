import { MAX_UPLOAD_BYTES, UPLOAD_TTL_SECONDS } from '../../shared/domain/images/image-upload';
import { IMAGE_TARGET_QUERY, json, MANAGE_PRODUCTS, PROJECT_KEY } from '../../shared/http/contract/declaring';
import { defineEndpoint, route } from '../../shared/http/declaration';
import type { ParameterSpecs } from '../../shared/http/parameters';

/** The two-step upload declares the image it will send; S3 takes nothing else. */
const START_UPLOAD_QUERY: ParameterSpecs = {
  ...IMAGE_TARGET_QUERY,
  contentType: { type: 'string', required: true, description: '`image/jpeg`, `image/png` or `image/gif` (another is 415)' },
  size: { type: 'integer', min: 1, max: MAX_UPLOAD_BYTES, required: true, description: 'The image\'s length in bytes' },
};

/**
 * POST /{projectKey}/resource/images/uploads: step 1 of the two-step upload of larger images
 * (beyond the interface, so no row) — answers a presigned S3 URL.
 */
export const startImageUpload = defineEndpoint({
  name: 'start-image-upload',
  permissions: ['projects:write', 'uploads:presignPut'],
  idempotencyKey: true,
  routes: [
    route({
      method: 'POST',
      path: '/{projectKey}/resource/images/uploads',
      access: MANAGE_PRODUCTS,
      body: 'none',
      summary: `Start an upload of a JPEG, PNG or GIF image of up to ${MAX_UPLOAD_BYTES} bytes: answers a presigned S3 URL to PUT it to.`,
      pathParameters: { projectKey: PROJECT_KEY },
      query: START_UPLOAD_QUERY,
      tag: 'Images',
      description: `Step 1 of 2, for images of up to ${MAX_UPLOAD_BYTES} bytes: \`sku\`, \`variant\`, \`filename\` and \`staged\` as for \`POST /{projectKey}/resource/images\`, plus the image's \`contentType\` and \`size\`. Answers a presigned S3 URL: PUT the image to it with exactly the headers given (S3 refuses another type or length, and a second PUT), then complete the upload. URL and upload expire after ${UPLOAD_TTL_SECONDS / 60} minutes.`,
      responses: { 201: { description: 'The upload is open: where and how to PUT the image.', content: json('ImageUploadTicket') } },
      errors: ['BadRequest', 'UnsupportedMediaType', 'ServiceUnavailable'],
    }),
  ],
});
