import type { ApiResult } from './api-types';
import type { PageBytes } from '../domain/query';
import { invalidInput } from './errors';

/**
 * Lambda returns at most 6 MB from a synchronous invocation — the whole result as JSON, the body an
 * escaped string inside it — and API Gateway answers anything larger with its own 500. Only pages
 * of resources come near it (500 resources of 12 KB), so a larger answer is sent gzip-compressed
 * when the client accepts it, and refused with advice when even that does not fit.
 */
export const LAMBDA_RESPONSE_LIMIT_BYTES = 6 * 1024 * 1024;

/** Room kept for the headers stamped after this check (correlation id) and the result's envelope. */
const ENVELOPE_BYTES = 16 * 1024;

/**
 * Below this many characters a body cannot outgrow the limit (a character is at most 3 bytes of
 * UTF-8, or 2 once escaped), so almost every answer is only measured by its length.
 */
const SURELY_FITS_CHARACTERS = Math.floor((LAMBDA_RESPONSE_LIMIT_BYTES - ENVELOPE_BYTES) / 3);

/**
 * How many bytes of resources (as JSON) a page may hold while it is read (page-window.ts). Without
 * gzip the answer's room: more cannot be sent. With gzip, what a 256 MB function holds safely —
 * the page read, then rendered once, then compressed (docs/performance.md, "Pages of large
 * resources"); how much a page compresses is only known once it is, so above this it is refused
 * even where it would compress into the room, and below it fitForLambda still decides.
 */
export function pageBytes(acceptEncoding: string | undefined): PageBytes {
  return acceptsGzip(acceptEncoding)
    ? { max: GZIP_PAGE_BYTES, reason: 'more than a function holds to compress into a response' }
    : { max: LAMBDA_RESPONSE_LIMIT_BYTES - ENVELOPE_BYTES, reason: 'more than a response can carry', orElse: 'send Accept-Encoding: gzip' };
}

const GZIP_PAGE_BYTES = 16 * 1024 * 1024;

/** The result as Lambda can return it: as it is, gzip-compressed, or a 400 InvalidInput saying what to ask instead. */
export function fitForLambda(result: ApiResult, acceptEncoding: string | undefined): ApiResult {
  const body = result.body ?? '';
  if (body.length <= SURELY_FITS_CHARACTERS || result.isBase64Encoded) return result;
  const room = LAMBDA_RESPONSE_LIMIT_BYTES - ENVELOPE_BYTES;
  const size = escapedSize(body);
  if (size <= room) return result;
  if (acceptsGzip(acceptEncoding)) {
    // Loaded here, not imported: zlib costs every function ≈ 1.5 ms of cold start, and few answers need it.
    const compressed = process.getBuiltinModule('node:zlib').gzipSync(body, { level: 1 });
    // Measured as base64 before it is made: a page that does not fit is never held a fourth time.
    if (Math.ceil(compressed.length / 3) * 4 <= room) {
      return { ...result, headers: { ...result.headers, 'content-encoding': 'gzip', vary: 'accept-encoding' }, body: compressed.toString('base64'), isBase64Encoded: true };
    }
  }
  const gzip = acceptsGzip(acceptEncoding);
  throw invalidInput(
    `This answer would take ${megabytes(size)} MB, more than the ${megabytes(LAMBDA_RESPONSE_LIMIT_BYTES)} MB a response can carry` +
      `${gzip ? ' even gzip-compressed' : ''}: ask for fewer results (limit)${gzip ? '' : ', or send Accept-Encoding: gzip'}.`,
  );
}

/** Whether Accept-Encoding allows gzip (RFC 9110 §12.5.3: `gzip` or `*` without q=0). */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((entry) => {
    const [coding, ...parameters] = entry.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = parameters.map((parameter) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
    return q === undefined || Number(q) > 0;
  });
}

/** The body's bytes once escaped into the result's JSON, without making that copy: a rendered body holds no control characters; quotes and backslashes double. */
function escapedSize(body: string): number {
  let escapes = 2;
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index);
    if (code === 34 || code === 92) escapes++;
  }
  return Buffer.byteLength(body) + escapes;
}

const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
