/**
 * The two-step image upload for images too large for the body of POST /{projectKey}/resource/images: the client asks for an upload
 * (`POST …/images/uploads`), PUTs the bytes straight to S3 with the presigned URL it gets, then
 * completes it (`POST …/images/uploads/{uploadId}`), which checks the object as that route checks a body.
 * No image-size here: the route table imports these limits into every function.
 */

/** The largest image the two-step upload takes. */
export const MAX_UPLOAD_BYTES = 20_000_000;

/** How long the presigned URL, and the pending upload, live. */
export const UPLOAD_TTL_SECONDS = 15 * 60;

/** What completion reads of the object first: enough for the magic number and, for PNG, GIF and most JPEGs, the dimensions. When they are not in it, the whole object is read. */
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
