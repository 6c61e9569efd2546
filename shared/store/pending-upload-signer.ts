/**
 * Presigned PUT URLs into the pending uploads' place (S3's pending-uploads bucket in AWS, s3rver
 * locally): the two-step upload's first step hands one out, and no image byte passes the service.
 */
export interface PendingUploadSigner {
  /**
   * A URL that lets its holder PUT this one pending object, once (`if-none-match: *`), with
   * exactly this content type and length, until it expires; and the headers the PUT must carry
   * (they are signed).
   */
  presignPut(pendingKey: string, contentType: string, size: number, expiresInSeconds: number): Promise<PresignedPut>;
}

export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}
