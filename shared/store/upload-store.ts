import type { PendingUpload } from '../domain/images/image-upload';

/** Image uploads that were started (a presigned URL handed out) and not completed yet. */
export interface UploadStore {
  create(projectKey: string, upload: PendingUpload): Promise<void>;
  /** The pending upload, or undefined when there is none (never started, already completed, or removed). */
  get(projectKey: string, uploadId: string): Promise<PendingUpload | undefined>;
  /**
   * Removes the pending upload if it is still there: true for the one caller that removed it, false
   * when it was gone already. Only that caller may attach the image (or delete the object).
   */
  claim(projectKey: string, uploadId: string): Promise<boolean>;
}
