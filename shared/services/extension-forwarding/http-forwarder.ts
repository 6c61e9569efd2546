import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ExtensionBadResponseError, ExtensionTimeoutError, ExtensionUnreachableError } from './errors';
import { checkTarget, type ResolvedAddress, type Resolver, type TargetPolicy } from './target-policy';

export interface OutgoingCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** The body to send, exactly as signed; none when undefined. */
  body?: string;
}

export interface RawAnswer {
  statusCode: number;
  contentType: string | undefined;
  body: Buffer;
}

export interface HttpForwarderOptions extends TargetPolicy {
  /** Largest answer body read; a larger one is a bad response. */
  maxResponseBytes: number;
  resolve?: Resolver;
}

/**
 * Sends one extension call over HTTP(S) and reads the answer, within `signal`'s deadline (the
 * whole exchange: resolution, connection, TLS, answer). The target is checked by the SSRF policy
 * first and the socket connects to the address that was checked. No redirect is followed (node's
 * client never follows one), nothing is pooled, and the body is read up to `maxResponseBytes`.
 */
export async function sendHttp(call: OutgoingCall, options: HttpForwarderOptions, signal: AbortSignal, timeoutMs: number): Promise<RawAnswer> {
  const timedOut = () => new ExtensionTimeoutError(timeoutMs);
  const target = await untilAborted(checkTarget(call.url, options, options.resolve), signal, timedOut);
  const https = call.url.protocol === 'https:';
  const requestOptions: RequestOptions & { servername?: string } = {
    method: call.method,
    hostname: target.hostname,
    port: call.url.port || (https ? 443 : 80),
    path: `${call.url.pathname}${call.url.search}`,
    headers: { ...call.headers, host: call.url.host, ...(call.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(call.body)) }) },
    agent: false,
    lookup: pinnedLookup(target.pinned),
    signal,
  };
  // SNI and certificate checks use the host name; an IP literal has no server name.
  if (https && !isIP(target.hostname)) requestOptions.servername = target.hostname;

  // The deadline holds the whole exchange, whatever the request's own events do (a 101 answer
  // ends the socket with no 'response' and no 'error').
  return untilAborted(exchange(https, requestOptions, call.body, options.maxResponseBytes, signal, timedOut), signal, timedOut);
}

function exchange(
  https: boolean,
  requestOptions: RequestOptions,
  body: string | undefined,
  maxResponseBytes: number,
  signal: AbortSignal,
  timedOut: () => Error,
): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(signal.aborted ? timedOut() : error);
    };
    let answered = false;
    const request = (https ? httpsRequest : httpRequest)(requestOptions, (response) => {
      answered = true;
      readAnswer(response, maxResponseBytes).then(
        (answer) => {
          if (settled) return;
          settled = true;
          resolve(answer);
        },
        fail,
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail(new ExtensionUnreachableError(`The extension could not be reached (${error.code ?? error.message}).`)),
    );
    // An answer that switches protocols is no answer: its socket is let go.
    request.on('upgrade', (_response, socket) => {
      socket.destroy();
      fail(new ExtensionBadResponseError('The extension answered 101 Switching Protocols.'));
    });
    // Closed before any answer came, with no error of its own (an answer's own end is readAnswer's).
    request.on('close', () => {
      if (!answered) fail(new ExtensionUnreachableError('The extension closed the connection without an answer.'));
    });
    request.end(body);
  });
}

function readAnswer(response: IncomingMessage, maxBytes: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      reject(new ExtensionBadResponseError(`The extension's answer exceeds ${maxBytes} bytes.`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let complete = false;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(new ExtensionBadResponseError(`The extension's answer exceeds ${maxBytes} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => {
      complete = true;
      resolve({ statusCode: response.statusCode ?? 0, contentType: response.headers['content-type'], body: Buffer.concat(chunks) });
    });
    response.on('error', () => reject(new ExtensionBadResponseError('The extension broke off its answer.')));
    response.on('close', () => {
      if (!complete) reject(new ExtensionBadResponseError('The extension broke off its answer.'));
    });
  });
}

/** A `lookup` that answers with the address already checked, whatever it is asked: the socket cannot end up anywhere the policy did not see (DNS rebinding). */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

/** Waits for `promise`, or rejects as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
