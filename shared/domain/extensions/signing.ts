import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Request signatures of forwarded extension calls, so a handler can tell the service's calls
 * from anyone else's (docs/extensions.md shows how to verify one).
 *
 *   X-Extension-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
 *
 * The HMAC key is the binding's secret (its UTF-8 bytes, prefix included), generated at bind time
 * and printed once. The signed text is the timestamp, the method, the request target (path and
 * query string, exactly as sent) and the body (exactly as sent, '' when there is none), joined
 * by line feeds:
 *
 *   `${t}\n${METHOD}\n${pathAndQuery}\n${body}`
 */
export const SIGNATURE_HEADER = 'X-Extension-Signature';
export const SIGNATURE_SCHEME = 'v1';
/** How far a signature's timestamp may be from the verifier's clock by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'gres_';

export interface SignedRequest {
  method: string;
  /** Path and query string of the request as sent, e.g. `/hooks/cart?x=1`. */
  pathAndQuery: string;
  /** The body as sent; '' when there is none. */
  body: string;
}

/** A new signing secret: 32 random bytes, base64url, with a recognizable prefix. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function signedText(timestamp: number, request: SignedRequest): string {
  return `${timestamp}\n${request.method.toUpperCase()}\n${request.pathAndQuery}\n${request.body}`;
}

export function computeSignature(secret: string, timestamp: number, request: SignedRequest): string {
  return createHmac('sha256', secret).update(signedText(timestamp, request), 'utf8').digest('hex');
}

/** The header value for a request sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, request: SignedRequest, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},${SIGNATURE_SCHEME}=${computeSignature(secret, timestamp, request)}`;
}

export interface ParsedSignature {
  timestamp: number;
  signatures: string[];
}

/** Reads `t=<unix>,v1=<hex>[,v1=<hex>...]`; undefined when the header is malformed. */
export function parseSignatureHeader(header: string | undefined): ParsedSignature | undefined {
  if (!header) return undefined;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator === -1) return undefined;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return undefined;
      timestamp = Number(value);
    } else if (name === SIGNATURE_SCHEME) {
      if (!/^[0-9a-f]{64}$/.test(value)) return undefined;
      signatures.push(value);
    }
    // Other schemes are ignored, so a future scheme can be added beside v1.
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

export type VerificationResult = { valid: true } | { valid: false; reason: 'malformed' | 'expired' | 'mismatch' };

/** Checks a signature header against the request received: a v1 signature must match (compared in constant time) and the timestamp must be within `toleranceSeconds` of `now`. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  request: SignedRequest,
  options: { now?: number; toleranceSeconds?: number } = {},
): VerificationResult {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { valid: false, reason: 'expired' };
  }
  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, request), 'hex');
  const matches = parsed.signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  return matches ? { valid: true } : { valid: false, reason: 'mismatch' };
}
