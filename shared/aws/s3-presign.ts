import { partition } from '@aws-sdk/core/client';
import { formatUrl } from '@aws-sdk/core/util';
import { HttpRequest } from '@smithy/core/protocols';
import { signerFor, type SignedRequestSettings } from './signed-requests';

/**
 * Presigned S3 `PutObject` URLs, signed by the AWS SDK's own SigV4 signer — which every function
 * carries for DynamoDB — instead of `@aws-sdk/client-s3` with `@aws-sdk/s3-request-presigner`:
 * presigning sends nothing to S3, yet the client brings all of S3's operation schemas and its
 * endpoint rules (≈ 160 KB of bundle) to sign one URL. The URL is the one
 * `getSignedUrl(new S3Client(…), new PutObjectCommand(…))` makes, query string and signature alike:
 * `test/unit/aws/s3-presign.test.ts` holds the two equal. Addresses are virtual-hosted in the
 * region's partition (`<bucket>.s3.<region>.amazonaws.com`, `….amazonaws.com.cn`, …), path-style
 * for a bucket name that cannot be a host label and for an endpoint that is set (the local S3
 * emulator). FIPS, dual-stack and accelerated endpoints are not made: the stack asks for none.
 * No checksum goes into the URL (the SDK's default would sign the CRC32 of the empty body it
 * presigns, and S3 would refuse every real upload); nor does the payload's hash (UNSIGNED-PAYLOAD).
 */

export interface PutObjectToSign {
  bucket: string;
  key: string;
  /** Signed: S3 refuses a PUT with other values for them, and a second PUT (`if-none-match: *`). */
  headers: { 'content-type': string; 'content-length': string; 'if-none-match': '*' };
  expiresInSeconds: number;
  /** The signature's time; now when not given (tests fix it). */
  signingDate?: Date;
}

export type PutObjectPresigner = (request: PutObjectToSign) => Promise<string>;

export function createPutObjectPresigner(settings: SignedRequestSettings): PutObjectPresigner {
  // The path is encoded once, below, as S3 expects it.
  const signer = signerFor('s3', settings, { uriEscapePath: false, applyChecksum: false });

  return async ({ bucket, key, headers, expiresInSeconds, signingDate }) => {
    const { url, path } = objectAddress(settings, bucket, key);
    const request = new HttpRequest({
      method: 'PUT',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path,
      query: { 'x-id': 'PutObject' },
      // Spelt as the SDK's presigner spells it: the header moves into the query string, name and all, and is signed there.
      headers: { host: url.host, ...headers, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
    });
    const presigned = await signer.presign(request, {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(Object.keys(headers)),
      ...(signingDate ? { signingDate } : {}),
    });
    return formatUrl(presigned);
  };
}

/** Where the object is: its bucket as the host's first label when it can be one, else the path's first segment. */
function objectAddress(settings: SignedRequestSettings, bucket: string, key: string): { url: URL; path: string } {
  const encodedKey = key.split('/').map(encodePathSegment).join('/');
  if (settings.endpoint) {
    const url = new URL(settings.endpoint);
    return { url, path: `${url.pathname.replace(/\/$/, '')}/${bucket}/${encodedKey}` };
  }
  const dnsSuffix = partition(settings.region).dnsSuffix;
  if (VIRTUAL_HOSTABLE_BUCKET.test(bucket)) return { url: new URL(`https://${bucket}.s3.${settings.region}.${dnsSuffix}`), path: `/${encodedKey}` };
  return { url: new URL(`https://s3.${settings.region}.${dnsSuffix}`), path: `/${bucket}/${encodedKey}` };
}

/** A bucket name that is one DNS label (no dots: the certificate covers one level): what S3's endpoint rules put in the host. */
const VIRTUAL_HOSTABLE_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** The SDK's `extendedEncodeURIComponent`: RFC 3986, so `!'()*` are escaped too. */
const encodePathSegment = (segment: string) =>
  encodeURIComponent(segment).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
