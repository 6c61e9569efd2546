import type { PendingUpload } from '../../../shared/domain/images/image-upload';
import type { Image, Variant } from '../../../shared/domain/images/variant';
import { StoreUnavailableError } from '../../../shared/domain/errors';
import type { ImageStorage, StoredObject } from '../../../shared/store/image-storage';
import type { PendingUploadSigner, PresignedPut } from '../../../shared/store/pending-upload-signer';
import type { UploadStore } from '../../../shared/store/upload-store';
import type { VariantStore } from '../../../shared/store/variant-store';

/** In-memory doubles of the image stores, recording what happened to them. */

/** Upload URLs that say what they were signed for (the real signer: test/unit/images/pending-upload-signer.test.ts). */
export const fakeSigner: PendingUploadSigner = {
  async presignPut(key: string, contentType: string, size: number, expiresInSeconds: number): Promise<PresignedPut> {
    return { url: `https://uploads.example/${key}?X-Amz-Expires=${expiresInSeconds}`, headers: { 'content-type': contentType, 'content-length': String(size) } };
  },
};

export class MemoryStorage implements ImageStorage {
  /** Served images. */
  readonly objects = new Map<string, { bytes: Buffer; contentType: string }>();
  /** Pending uploads: never served. */
  readonly pending = new Map<string, { bytes: Buffer; contentType: string }>();
  readonly reads: { key: string; maxBytes?: number }[] = [];
  readonly deleted: string[] = [];
  constructor(private readonly failPut = false) {}

  async put(key: string, bytes: Buffer, contentType: string) {
    if (this.failPut) throw new StoreUnavailableError(new Error('S3 is down'));
    this.objects.set(key, { bytes, contentType });
  }
  async delete(key: string) {
    this.objects.delete(key);
    this.deleted.push(key);
  }
  urlOf(key: string) {
    return `https://images.example/${key}`;
  }
  /** What a client's PUT to the presigned URL leaves behind. */
  receive(key: string, bytes: Buffer, contentType: string) {
    this.pending.set(key, { bytes, contentType });
  }
  async headPending(key: string): Promise<StoredObject | undefined> {
    const object = this.pending.get(key);
    return object && { size: object.bytes.length, contentType: object.contentType };
  }
  async readPending(key: string, maxBytes?: number) {
    this.reads.push({ key, ...(maxBytes === undefined ? {} : { maxBytes }) });
    const object = this.pending.get(key);
    return object && (maxBytes === undefined ? object.bytes : object.bytes.subarray(0, maxBytes));
  }
  async publishPending(pendingKey: string, key: string, contentType: string) {
    const object = this.pending.get(pendingKey);
    if (!object) throw new StoreUnavailableError(new Error('NoSuchKey'));
    this.objects.set(key, { bytes: object.bytes, contentType });
  }
  async deletePending(key: string) {
    this.pending.delete(key);
  }
  /** The served key an image was published at, from its URL. */
  keyOf(url: string) {
    return url.replace('https://images.example/', '');
  }
}

export class MemoryUploads implements UploadStore {
  readonly records = new Map<string, PendingUpload>();
  /** Set to lose every claim, as when another completion removed the record first. */
  loseClaims = false;
  /** Set to make every claim fail, as when the table is unavailable. */
  failClaims: Error | undefined;

  async create(projectKey: string, upload: PendingUpload) {
    this.records.set(`${projectKey}/${upload.uploadId}`, structuredClone(upload));
  }
  async get(projectKey: string, uploadId: string) {
    const record = this.records.get(`${projectKey}/${uploadId}`);
    return record && structuredClone(record);
  }
  async claim(projectKey: string, uploadId: string) {
    if (this.failClaims) throw this.failClaims;
    if (this.loseClaims) return false;
    return this.records.delete(`${projectKey}/${uploadId}`);
  }
}

export type RecordingVariants = VariantStore & { attached: { selector: { sku?: string; id?: number }; image: Image; publish: boolean }[] };

/** A variant store that records what it was asked to attach; `attach` decides the answer. */
export function recordingVariants(
  attach: (image: Image) => Promise<Variant> = async (image) => ({ id: 1, images: [], stagedImages: [image] }),
): RecordingVariants {
  const attached: RecordingVariants['attached'] = [];
  return {
    attached,
    attachImage: async (_project, selector, image, publish) => {
      attached.push({ selector, image, publish });
      return attach(image);
    },
  };
}

export { GIF_1X1, png } from '../../support/images';


/**
 * The markers of a baseline JPEG that image-size reads: SOI, an APP0 segment, `metadataBytes` of
 * APP1 segments (as EXIF data and thumbnails would be) before the frame header (SOF0), then EOI.
 */
export function jpeg(width: number, height: number, metadataBytes = 0): Buffer {
  const segment = (marker: number, payload: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(payload.length + 2, 2);
    return Buffer.concat([head, payload]);
  };
  const parts = [Buffer.from([0xff, 0xd8]), segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'))];
  for (let left = metadataBytes; left > 0; left -= 65_533) parts.push(segment(0xe1, Buffer.alloc(Math.min(left, 65_533))));
  const frame = Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  parts.push(segment(0xc0, frame), Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}
