import { describe, expect, it } from 'vitest';
import { detectImageType, safeFileName } from '../../../shared/domain/images/image-file';
import { QueryParameters } from '../../../shared/http/query-parameters';
import { ImageService } from '../../../shared/services/image-service';
import { StoreUnavailableError } from '../../../shared/domain/errors';
import { GIF_1X1 as GIF, MemoryStorage as RecordingStorage, MemoryUploads, recordingVariants as variants } from './fakes';

describe('ImageService: no orphans, nothing half-recorded', () => {
  it('removes the object again when recording the variant fails', async () => {
    const storage = new RecordingStorage();
    const failing = variants(async () => {
      throw new StoreUnavailableError(new Error('DynamoDB throttled'));
    });
    const service = new ImageService(failing, storage, new MemoryUploads());
    await expect(service.upload('demo', new QueryParameters('sku=a'), 'image/gif', GIF)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(failing.attached).toHaveLength(1);
    expect(storage.objects.size).toBe(0);
  });

  it('records nothing when S3 fails', async () => {
    const recording = variants(async (image) => ({ id: 1, images: [], stagedImages: [image] }));
    const service = new ImageService(recording, new RecordingStorage(true), new MemoryUploads());
    await expect(service.upload('demo', new QueryParameters('sku=a'), 'image/gif', GIF)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(recording.attached).toHaveLength(0);
  });

  it('keeps the object and answers the variant when both succeed', async () => {
    const storage = new RecordingStorage();
    const recording = variants(async (image) => ({ id: 1, sku: 'a', images: [], stagedImages: [image] }));
    const variant = await new ImageService(recording, storage, new MemoryUploads()).upload('demo', new QueryParameters('sku=a'), 'image/gif', GIF);
    expect(storage.objects.size).toBe(1);
    expect(variant.stagedImages[0]).toMatchObject({ dimensions: { w: 1, h: 1 }, contentType: 'image/gif', label: 'img' });
  });
});

describe('image bytes and names', () => {
  it('detects JPEG, PNG and GIF by magic number only', () => {
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(detectImageType(GIF)).toBe('image/gif');
    expect(detectImageType(Buffer.from('<svg/>'))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('makes file names safe for object keys', () => {
    expect(safeFileName(undefined, 'image/png')).toBe('img');
    expect(safeFileName('', 'image/png')).toBe('img');
    expect(safeFileName('../../etc/passwd', 'image/png')).toBe('etc-passwd');
    expect(safeFileName('.hidden', 'image/png')).toBe('hidden');
    expect(safeFileName('a b/c.png', 'image/png')).toBe('a-b-c.png');
    expect(safeFileName('x'.repeat(300), 'image/png')).toHaveLength(95);
  });

  it('gives the file name the extension of the checked type: another type\'s extension is replaced', () => {
    expect(safeFileName('x.html', 'image/gif')).toBe('x.gif');
    expect(safeFileName('photo.PNG', 'image/jpeg')).toBe('photo.jpg');
    expect(safeFileName('photo.jpeg', 'image/jpeg')).toBe('photo.jpeg');
    expect(safeFileName('Front.PNG', 'image/png')).toBe('Front.PNG');
    expect(safeFileName('a.svg.', 'image/png')).toBe('a.svg.png');
    expect(safeFileName('..html', 'image/gif')).toBe('html');
  });
});
