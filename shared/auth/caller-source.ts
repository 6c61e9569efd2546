import { timingSafeEqual } from 'node:crypto';
import { config } from '../config';

/** Set by the CloudFront Function in front of the API (`-c waf=true`): the viewer's address, and the secret proving it. */
export const VIEWER_ADDRESS_HEADER = 'x-grs-viewer-address';
export const EDGE_SECRET_HEADER = 'x-grs-edge-secret';

/**
 * The caller's address for the brute-force brake: API Gateway's sourceIp, unless the request came
 * through the stack's own CloudFront distribution (then sourceIp is an edge address, and the
 * viewer's address arrives in VIEWER_ADDRESS_HEADER). That header is believed only with the edge
 * secret the distribution adds (EDGE_SECRET); a caller going around the distribution cannot know
 * it, so it cannot choose its source.
 */
export function callerSource(sourceIp: string | undefined, headers: Record<string, string | undefined>, edgeSecret = config.edgeSecret): string | undefined {
  const viewer = headers[VIEWER_ADDRESS_HEADER];
  const presented = headers[EDGE_SECRET_HEADER];
  if (!edgeSecret || !viewer || !presented) return sourceIp;
  const [expected, given] = [Buffer.from(edgeSecret), Buffer.from(presented)];
  return expected.length === given.length && timingSafeEqual(expected, given) ? viewer : sourceIp;
}
