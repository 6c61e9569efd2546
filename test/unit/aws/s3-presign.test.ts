import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { createPutObjectPresigner, type PutObjectToSign } from '../../../shared/aws/s3-presign';
import { settingsFromEnvironment } from '../../../shared/aws/signed-requests';

/**
 * Upload URLs are presigned without `@aws-sdk/client-s3` (shared/aws/s3-presign.ts): each must be
 * the URL the SDK's presigner makes for the same PutObject — address, query string and signature.
 */
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
const signingDate = new Date('2026-11-25T12:34:56Z');

const put = (overrides: Partial<PutObjectToSign> = {}): PutObjectToSign => ({
  bucket: 'grs-imageuploads-1a2b3c4d5e6f',
  key: 'demo/uploads/0b6f1f8e-8a43-4c1e-9f0e-5f6c7d8e9a0b/front-1.png',
  headers: { 'content-type': 'image/png', 'content-length': '6000123', 'if-none-match': '*' },
  expiresInSeconds: 900,
  signingDate,
  ...overrides,
});

/** What `getSignedUrl` makes, with the options the service used it with (no checksum in the URL, these headers signed). */
async function sdkUrl(region: string, request: PutObjectToSign, endpoint?: string, sessionToken = true): Promise<string> {
  const client = new S3Client({
    region,
    credentials: sessionToken ? credentials : { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
  });
  const command = new PutObjectCommand({
    Bucket: request.bucket,
    Key: request.key,
    ContentType: request.headers['content-type'],
    ContentLength: Number(request.headers['content-length']),
    IfNoneMatch: '*',
  });
  return getSignedUrl(client, command, { expiresIn: request.expiresInSeconds, signableHeaders: new Set(Object.keys(request.headers)), signingDate });
}

describe('presigned PutObject URLs without the S3 client', () => {
  it.each(['eu-west-1', 'us-east-1', 'eu-central-2', 'cn-north-1', 'us-gov-west-1', 'ap-southeast-5'])(
    'equal the SDK presigner’s in %s: virtual-hosted in the partition’s domain, the same signature',
    async (region) => {
      const presign = createPutObjectPresigner({ region, credentials: async () => credentials });
      const url = await presign(put());
      expect(url).toBe(await sdkUrl(region, put()));
      expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;if-none-match');
      expect(new URL(url).searchParams.get('X-Amz-Security-Token')).toBe('session-token');
    },
  );

  it('equal it for other types, sizes, lifetimes and keys (characters a key may have, and some it never has)', async () => {
    const presign = createPutObjectPresigner({ region: 'eu-west-1', credentials: async () => credentials });
    const cases = [
      put({ headers: { 'content-type': 'image/jpeg', 'content-length': '1', 'if-none-match': '*' }, expiresInSeconds: 60 }),
      put({ key: 'my_project-2/uploads/00000000-0000-4000-8000-000000000000/img' }),
      put({ key: "odd/a b+c(1)!'*~.png" }),
      put({ key: 'ünïcode/ß.gif' }),
    ];
    for (const request of cases) expect(await presign(request), request.key).toBe(await sdkUrl('eu-west-1', request));
  });

  it('equal it path-style for a bucket name that cannot be a host label, and without a session token', async () => {
    const presign = createPutObjectPresigner({ region: 'eu-west-1', credentials: async () => credentials });
    for (const bucket of ['my.dotted.bucket', 'ab']) expect(await presign(put({ bucket })), bucket).toBe(await sdkUrl('eu-west-1', put({ bucket })));
    const longTerm = createPutObjectPresigner({ region: 'eu-west-1', credentials: async () => ({ accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey }) });
    const url = await longTerm(put());
    expect(url).toBe(await sdkUrl('eu-west-1', put(), undefined, false));
    expect(new URL(url).searchParams.has('X-Amz-Security-Token')).toBe(false);
  });

  it('equal it against a set endpoint (the local S3 emulator), path-style', async () => {
    const endpoint = 'http://127.0.0.1:45123';
    const presign = createPutObjectPresigner({ region: 'local', endpoint, credentials: async () => credentials });
    const url = await presign(put());
    expect(url).toBe(await sdkUrl('local', put(), endpoint));
    expect(url.startsWith(`${endpoint}/grs-imageuploads-1a2b3c4d5e6f/demo/uploads/`)).toBe(true);
  });

  it('signs with the time of the call when none is given, and asks for credentials only then', async () => {
    let asked = 0;
    const presign = createPutObjectPresigner({
      region: 'eu-west-1',
      credentials: async () => {
        asked++;
        return credentials;
      },
    });
    expect(asked).toBe(0);
    const before = Date.now();
    const url = new URL(await presign(put({ signingDate: undefined })));
    const amzDate = url.searchParams.get('X-Amz-Date')!;
    const signedAt = Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`);
    expect(signedAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(signedAt).toBeLessThanOrEqual(Date.now());
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(asked).toBe(1);
  });

  it('takes the region and endpoint from the environment as the SDK does', () => {
    expect(settingsFromEnvironment('S3', { AWS_REGION: 'eu-west-1' })).toEqual({ region: 'eu-west-1' });
    expect(settingsFromEnvironment('S3', { AWS_DEFAULT_REGION: 'us-east-2', AWS_ENDPOINT_URL: 'http://a:1' })).toEqual({ region: 'us-east-2', endpoint: 'http://a:1' });
    expect(settingsFromEnvironment('S3', { AWS_REGION: 'x', AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_S3: 'http://s3:2' })).toEqual({ region: 'x', endpoint: 'http://s3:2' });
    expect(() => settingsFromEnvironment('S3', {})).toThrow('AWS_REGION is not set');
  });
});
