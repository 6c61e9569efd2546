import * as z from 'zod/mini';

/**
 * The two-step image upload for images too large for row 13's body: the client asks for an upload
 * (`POST …/images/uploads`), PUTs the bytes straight to S3 with the presigned URL it gets, then
 * completes it (`POST …/images/uploads/{uploadId}`), which checks the object as row 13 checks a body.
 * No image-size here: the route table imports these limits into every function.
 */

/** The largest image the two-step upload takes. */
export const MAX_UPLOAD_BYTES = 20_000_000;

/** How long the presigned URL, and the pending upload, live. */
export const UPLOAD_TTL_SECONDS = 15 * 60;

/**
 * What completion reads of the object first: enough for the magic number and, for PNG, GIF and
 * most JPEGs, the dimensions. When they are not in it, the whole object is read.
 */
export const UPLOAD_PREFIX_BYTES = 512 * 1024;

/** An upload that was started and not completed yet (the DynamoDB record). */
export interface PendingUpload {
  uploadId: string;
  /** The pending object the presigned URL writes, in the pending-uploads bucket: `<projectKey>/uploads/<uuid>/<filename>`. */
  objectKey: string;
  contentType: string;
  size: number;
  selector: { sku?: string; id?: number };
  filename: string;
  /** `staged=false`: the image joins `images` besides `stagedImages`. */
  publish: boolean;
  /** Epoch seconds; after it the upload is unknown (404). */
  expiresAt: number;
}

/** The answer to starting an upload: how to send the bytes, and until when. */
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
  expiresAt: z.string().check(z.meta({ description: 'ISO 8601: the URL, and the upload, expire then (15 minutes after the start).' })),
});
export type ImageUploadTicket = z.infer<typeof ImageUploadTicket>;
