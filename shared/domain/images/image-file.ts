import type { IImage } from 'image-size/types/interface';
import { GIF } from 'image-size/types/gif';
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';

/** What an uploaded image is, read from its bytes: the type by its magic number (the Content-Type header must agree) and the dimensions by image-size's reader of that type. */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

/**
 * The largest image the endpoint takes: Lambda's 6,291,456-byte synchronous payload carries the
 * body base64-encoded (4/3 of its size) inside the event, which leaves about 4.7 MB of raw bytes
 * less the rest of the request; a larger request never reaches the function (docs/design.md).
 */
export const MAX_IMAGE_BYTES = 4_400_000;

/**
 * The largest width and height taken (each): an image's header can declare any size up to
 * 2^31 − 1 pixels, and a published image that size would stall or crash whoever decodes it.
 * 16384 is the largest canvas side browsers render.
 */
export const MAX_IMAGE_SIDE = 16_384;

/** The file name extensions of each type; the first replaces an extension of another type. */
export const IMAGE_EXTENSIONS: Record<ImageContentType, readonly string[]> = { 'image/jpeg': ['jpg', 'jpeg'], 'image/png': ['png'], 'image/gif': ['gif'] };

const MAGIC_NUMBERS: { type: ImageContentType; bytes: number[] }[] = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] }, // "GIF8" of GIF87a / GIF89a
];

export function detectImageType(bytes: Uint8Array): ImageContentType | undefined {
  return MAGIC_NUMBERS.find(({ bytes: magic }) => magic.every((byte, index) => bytes[index] === byte))?.type;
}

export function isImageContentType(value: string): value is ImageContentType {
  return (IMAGE_CONTENT_TYPES as readonly string[]).includes(value);
}

/**
 * image-size's reader of each type taken, imported one by one: its main entry detects and carries
 * the readers of twenty formats (≈ 11 KB of each image function) that no upload may have.
 */
const DIMENSION_READERS: Record<ImageContentType, IImage> = { 'image/jpeg': JPG, 'image/png': PNG, 'image/gif': GIF };

/** Width and height, or undefined when the bytes are not a readable image of `type`. */
export function readDimensions(type: ImageContentType, bytes: Uint8Array): { w: number; h: number } | undefined {
  const reader = DIMENSION_READERS[type];
  const input = aloneInItsBuffer(bytes);
  try {
    if (!reader.validate(input)) return undefined;
    const { width, height } = reader.calculate(input);
    return width && height ? { w: width, h: height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bytes in an ArrayBuffer of their own (copied only when they are a view into a larger one).
 * image-size's readers read through `new DataView(input.buffer, input.byteOffset + offset)`, with
 * no length: on a view into a larger ArrayBuffer — every small Buffer is one, in Node's shared
 * 8 KB pool — a truncated header is read on from the bytes after it, and passes with made-up
 * dimensions. Alone in its ArrayBuffer, a read past the end throws, and the image is refused.
 * Copying is simpler and surer than checking each reader's offsets against the length.
 */
function aloneInItsBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/**
 * A file name safe inside an object key, with the extension of the image's type: letters,
 * digits, `.`, `_` and `-` only, no leading dots, at most 100 characters. A name whose extension
 * is not one of the type's has it replaced (`x.html` with GIF bytes is `x.gif`), so the name never
 * claims another type than the bytes; a name without an extension (`front`, the default `img`)
 * claims none and stays. The key's unique prefix, not the name, makes the object unique.
 */
export function safeFileName(filename: string | undefined, type: ImageContentType): string {
  const cleaned = (filename ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 95);
  const dot = cleaned.lastIndexOf('.');
  if (dot <= 0) return cleaned || 'img';
  if (IMAGE_EXTENSIONS[type].includes(cleaned.slice(dot + 1).toLowerCase())) return cleaned;
  return `${cleaned.slice(0, dot).replace(/[.-]+$/, '') || 'img'}.${IMAGE_EXTENSIONS[type][0]}`;
}
