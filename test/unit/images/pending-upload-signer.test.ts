import { describe, expect, it } from 'vitest';
import { createPresigningS3Client } from '../../../shared/aws/s3';
import { StoreUnavailableError } from '../../../shared/domain/errors';
import { S3PendingUploadSigner } from '../../../shared/store/s3/pending-upload-signer';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };

describe('upload URLs of the pending-uploads bucket', () => {
  it('sign the headers the PUT must carry, for this bucket and key, for the lifetime asked', async () => {
    const signer = new S3PendingUploadSigner('grs-uploads-abc', () => createPresigningS3Client({ region: 'eu-west-1', credentials }));
    const { url, headers } = await signer.presignPut('demo/uploads/u-1/front.png', 'image/png', 1234, 900);
    expect(headers).toEqual({ 'content-type': 'image/png', 'content-length': '1234', 'if-none-match': '*' });
    const signed = new URL(url);
    expect(`${signed.origin}${signed.pathname}`).toBe('https://grs-uploads-abc.s3.eu-west-1.amazonaws.com/demo/uploads/u-1/front.png');
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(signed.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;if-none-match');
    expect(signed.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    expect(signed.searchParams.get('X-Amz-Security-Token')).toBe('session-token');
    // No checksum of the empty body it was signed with: S3 would refuse every real upload.
    expect([...signed.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('are 503 when they cannot be signed (no credentials); the client is not built before a URL is asked for', async () => {
    let built = 0;
    const signer = new S3PendingUploadSigner('b-1', () => {
      built++;
      return createPresigningS3Client({
        region: 'eu-west-1',
        credentials: async () => {
          throw new Error('Could not load credentials from any providers');
        },
      });
    });
    expect(built).toBe(0);
    await expect(signer.presignPut('k', 'image/gif', 1, 60)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(built).toBe(1);
  });
});
