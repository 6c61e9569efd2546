import * as z from 'zod/mini';

/**
 * The answer to starting an upload: how to send the bytes, and until when. A schema (the OpenAPI
 * document shows it) apart from the upload's limits, which every image function imports.
 */
export const ImageUploadTicket = z.object({
  uploadId: z.string().check(z.meta({ description: 'Complete the upload with `POST /{projectKey}/resource/images/uploads/{uploadId}`.' })),
  method: z.literal('PUT'),
  url: z.string().check(z.meta({ description: 'The presigned S3 URL to send the image bytes to.' })),
  headers: z.record(z.string(), z.string()).check(
    z.meta({
      description:
        'Headers the PUT must carry exactly as given (they are signed): `content-type`, `content-length`, and `if-none-match: *` (the object can be written once).',
    }),
  ),
  expiresAt: z.iso.datetime().check(z.meta({ description: 'ISO 8601: the URL, and the upload, expire then (15 minutes after the start).' })),
});
export type ImageUploadTicket = z.infer<typeof ImageUploadTicket>;
