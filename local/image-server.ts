import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from './port-probe';

/** The headers of an S3 answer an image reader gets (CloudFront passes the same). */
const PASSED_HEADERS = ['content-type', 'content-length', 'cache-control', 'etag', 'last-modified', 'accept-ranges', 'content-range'];

/**
 * Served images carry these in AWS too (the distribution's response headers policy): a browser
 * never sniffs an image into another type (an "image" it would run as HTML or script).
 */
export const IMAGE_RESPONSE_HEADERS = { 'x-content-type-options': 'nosniff' } as const;

export interface RunningImageServer {
  /** IMAGE_BASE_URL: image URLs are `<url>/<object key>`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The local stand-in for the image CDN (CloudFront in AWS): reads, and only reads, the served
 * images bucket of the S3 emulator, adding the headers the distribution adds. Pending uploads live
 * in another bucket, which this server cannot reach: as in AWS, nothing unchecked is served.
 */
export async function startImageServer(options: { bucketUrl: string; host: string }): Promise<RunningImageServer> {
  const server = createServer((request, response) => void serve(options.bucketUrl, request, response));
  await listen(server, 0, options.host);
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://${options.host}:${port}`, stop };
}

async function serve(bucketUrl: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  const path = (request.url ?? '/').split('?')[0]!;
  if (method !== 'GET' && method !== 'HEAD') return answer(response, 405, { allow: 'GET, HEAD' });
  // Only object keys: no bucket listing, no sub-resources (?acl, ?versions), no dot segments.
  if (path === '/' || /(^|\/)\.\.?(\/|$)/.test(decodeURIComponentSafe(path))) return answer(response, 404);
  try {
    const range = request.headers.range;
    const upstream = await fetch(`${bucketUrl}${path}`, { method, headers: range ? { range } : {} });
    const headers: Record<string, string> = { ...IMAGE_RESPONSE_HEADERS };
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    if (upstream.status === 403 || upstream.status === 404) return answer(response, 404);
    response.writeHead(upstream.status, headers);
    response.end(method === 'HEAD' ? undefined : Buffer.from(await upstream.arrayBuffer()));
  } catch {
    answer(response, 502);
  }
}

function answer(response: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...IMAGE_RESPONSE_HEADERS, 'content-length': 0, ...headers });
  response.end();
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
