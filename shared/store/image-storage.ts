/**
 * Where image bytes live (S3 in AWS, s3rver locally), and the address that serves them. Two
 * places: the served images, and pending two-step uploads, which nothing serves — a pending
 * object becomes public only when completion has checked it and publishes a copy of it. The URLs
 * that let clients PUT pending objects are another port's (pending-upload-signer.ts).
 */
export interface ImageStorage {
  /** Writes a served image (the checked body of POST /{projectKey}/resource/images). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Removes a served image. */
  delete(key: string): Promise<void>;
  urlOf(key: string): string;
  /** The pending object's size and content type; undefined when there is no such object. */
  headPending(pendingKey: string): Promise<StoredObject | undefined>;
  /** The pending object's bytes (its first `maxBytes` when given); undefined when there is no such object. */
  readPending(pendingKey: string, maxBytes?: number): Promise<Buffer | undefined>;
  /** Copies a checked pending object to a served key, with the served images' content type and caching. */
  publishPending(pendingKey: string, key: string, contentType: string): Promise<void>;
  deletePending(pendingKey: string): Promise<void>;
}

export interface StoredObject {
  size: number;
  contentType: string | undefined;
}
