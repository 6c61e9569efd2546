import { isExtensionAction, type ExtensionAction } from '../domain/extensions/actions';
import { isExtensionAnswerStatus, type HttpTarget, type JsonValue, type LambdaTarget } from '../domain/extensions/binding';
import { DEFAULT_BINDINGS } from '../domain/extensions/default-bindings';
import { SIGNATURE_HEADER, signatureHeader } from '../domain/extensions/signing';
import { DomainError, InvalidJsonInputError, RequestEntityTooLargeError, UnsupportedMediaTypeError } from '../domain/errors';
import { isJsonContentType, namesJsonMediaType } from '../domain/json-content-type';
import { JSON_BODY_LIMIT_BYTES } from '../domain/limits';
import { logger } from '../observability/logger';
import type { ExtensionStore } from '../store/extension-store';
import {
  ExtensionCallError,
  ExtensionTargetRefusedError,
  ExtensionTargetUnavailableError,
  ExtensionTimeoutError,
  ExtensionBadResponseError,
  ExtensionUnreachableError,
} from './extension-forwarding/errors';
import { checkAnswerDepth } from './extension-forwarding/answer-depth';
import { sendHttp, untilAborted, type RawAnswer } from './extension-forwarding/http-forwarder';
import type { LambdaInvoker } from './extension-forwarding/lambda-invoker';
import type { Resolver } from './extension-forwarding/target-policy';

/** A handler must answer within this time, or the call answers 504 ExtensionNoResponse. */
export const EXTENSION_TIMEOUT_MS = 2_000;
/** Largest answer relayed; a larger one is 502 ExtensionBadResponse. */
export const EXTENSION_RESPONSE_LIMIT_BYTES = 1024 * 1024;
const USER_AGENT = 'generic-resource-service-extensions/1';

export interface ExtensionCall {
  projectKey: string;
  /** The action: the last segment of the route's path. */
  action: string;
  method: string;
  /** The API path called, e.g. `/demo/resource/namespace-action` (signed for Lambda targets). */
  path: string;
  /** The query parameters, repeated names kept (forwarded as they came, re-encoded). */
  query: ReadonlyMap<string, readonly string[]>;
  /** The request body as text (POST only); JSON when present. */
  body?: string;
  contentType?: string;
  correlationId: string;
}

export interface ExtensionAnswer {
  statusCode: number;
  body: JsonValue;
}

export interface ExtensionServiceOptions {
  bindings: ExtensionStore;
  lambda: LambdaInvoker;
  /** `LOCAL_MODE=true`: http and https to loopback addresses are allowed too. */
  localMode: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  resolve?: Resolver;
}

/**
 * The extension actions (`/{projectKey}/resource/namespace-action…`). An action call finds the project's binding (or the action's
 * default), and answers a static document, or forwards the call — method, query, JSON body, a
 * signature header — to an HTTPS endpoint or a Lambda function and relays its status and JSON
 * answer. (PUT `/{projectKey}/resource/json-serializable-primitive-type`, one JSON value per project, is its own use case: json-value-service.ts.)
 */
export class ExtensionService {
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: ExtensionServiceOptions) {
    this.timeoutMs = options.timeoutMs ?? EXTENSION_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? EXTENSION_RESPONSE_LIMIT_BYTES;
  }

  async call(call: ExtensionCall): Promise<ExtensionAnswer> {
    if (!isExtensionAction(call.action)) throw noBinding(call.action, call.projectKey);
    const body = readJsonBody(call);
    const binding = await this.options.bindings.get(call.projectKey, call.action);
    const target = binding?.target ?? DEFAULT_BINDINGS[call.action];
    if (!target) throw noBinding(call.action, call.projectKey);
    if (target.kind === 'static') return { statusCode: target.statusCode, body: target.document };

    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const answer =
        target.kind === 'http'
          ? await this.forwardHttp(target, call, call.action, body, signal)
          : await this.invokeLambda(target, call, call.action, body, signal);
      checkAnswerDepth(answer.body);
      return answer;
    } catch (error) {
      if (error instanceof ExtensionCallError) throw this.failure(error, call);
      throw error;
    }
  }

  /** Sends the call to an HTTP(S) binding, signed, and relays its answer. */
  private async forwardHttp(target: HttpTarget, call: ExtensionCall, action: ExtensionAction, body: string | undefined, signal: AbortSignal) {
    const url = new URL(target.url);
    const query = encodeQuery(call.query);
    if (query) url.search = url.search ? `${url.search}&${query}` : `?${query}`;
    const method = call.method.toUpperCase();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': 'identity',
      'user-agent': USER_AGENT,
      'x-extension-action': action,
      'x-extension-project': call.projectKey,
      'x-correlation-id': call.correlationId,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(target.secret, { method, pathAndQuery: `${url.pathname}${url.search}`, body: body ?? '' }),
      ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
    };
    const answer = await sendHttp(
      { url, method, headers, body },
      { localMode: this.options.localMode, maxResponseBytes: this.maxResponseBytes, resolve: this.options.resolve },
      signal,
      this.timeoutMs,
    );
    return relayHttpAnswer(answer);
  }

  /**
   * The Lambda event is `{action, projectKey, method, path, rawQueryString, body, headers}` with
   * the body as the JSON text (null when none) and the signature header in `headers`; the function
   * answers `{statusCode, body}` with any JSON value as body (docs/extensions.md).
   */
  private async invokeLambda(target: LambdaTarget, call: ExtensionCall, action: ExtensionAction, body: string | undefined, signal: AbortSignal) {
    if (this.options.localMode) throw new ExtensionTargetUnavailableError('Lambda bindings are served only in AWS, not in local mode.');
    const method = call.method.toUpperCase();
    const rawQueryString = encodeQuery(call.query);
    const pathAndQuery = rawQueryString ? `${call.path}?${rawQueryString}` : call.path;
    const event = {
      version: '1',
      action,
      projectKey: call.projectKey,
      method,
      path: call.path,
      rawQueryString,
      body: body ?? null,
      headers: {
        'x-extension-action': action,
        'x-extension-project': call.projectKey,
        'x-correlation-id': call.correlationId,
        [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(target.secret, { method, pathAndQuery, body: body ?? '' }),
      },
    };
    const invocation = await untilDeadline(this.options.lambda.invoke(target.functionName, JSON.stringify(event), signal), signal, this.timeoutMs);
    if (invocation.functionError) throw new ExtensionBadResponseError(`The extension function failed (${invocation.functionError}).`);
    if (Buffer.byteLength(invocation.payload) > this.maxResponseBytes) {
      throw new ExtensionBadResponseError(`The extension's answer exceeds ${this.maxResponseBytes} bytes.`);
    }
    let answer: unknown;
    try {
      answer = JSON.parse(invocation.payload);
    } catch {
      throw new ExtensionBadResponseError('The extension function did not answer JSON.');
    }
    const { statusCode, body: answerBody } = (answer ?? {}) as { statusCode?: unknown; body?: unknown };
    if (!isExtensionAnswerStatus(statusCode) || answerBody === undefined) {
      throw new ExtensionBadResponseError('The extension function must answer {"statusCode": 200..599 (not 3xx, 204 or 205), "body": <JSON>}.');
    }
    return { statusCode, body: answerBody as JsonValue };
  }

  private failure(error: ExtensionCallError, call: ExtensionCall): DomainError {
    const context = { action: call.action, projectKey: call.projectKey, reason: error.message };
    if (error instanceof ExtensionTimeoutError) {
      logger.warn('extension call timed out', context);
      return new DomainError([
        { code: 'ExtensionNoResponse', message: `The extension bound to '${call.action}' did not answer within ${this.timeoutMs} ms.`, action: call.action },
      ]);
    }
    logger.warn('extension call failed', { ...context, ...(error instanceof ExtensionTargetRefusedError && error.detail ? { address: error.detail } : {}) });
    return new DomainError([
      { code: 'ExtensionBadResponse', message: `The extension bound to '${call.action}' gave no usable answer: ${answerReason(error)}`, action: call.action },
    ]);
  }
}

/**
 * What the caller is told of a failure: what the answer lacked, but nothing of where the handler
 * is or how its name resolves (the operator's hosts, functions and their errors are for the log,
 * which has the whole reason).
 */
function answerReason(error: ExtensionCallError): string {
  if (error instanceof ExtensionTargetRefusedError) return 'its target may not be called from the service.';
  if (error instanceof ExtensionUnreachableError) return 'its target could not be reached.';
  return error.message;
}

/** The POST body: none, or JSON sent as JSON (415 for another content type, 400 for broken JSON). */
function readJsonBody(call: ExtensionCall): string | undefined {
  if (call.method.toUpperCase() !== 'POST' || call.body === undefined || call.body === '') return undefined;
  if (Buffer.byteLength(call.body) > JSON_BODY_LIMIT_BYTES) throw new RequestEntityTooLargeError(JSON_BODY_LIMIT_BYTES);
  if (!isJsonContentType(call.contentType)) throw new UnsupportedMediaTypeError('application/json', call.contentType);
  try {
    JSON.parse(call.body);
  } catch (error) {
    throw new InvalidJsonInputError((error as Error).message);
  }
  return call.body;
}

function relayHttpAnswer(answer: RawAnswer): ExtensionAnswer {
  if (answer.statusCode >= 300 && answer.statusCode < 400) {
    throw new ExtensionBadResponseError(`The extension answered a redirect (${answer.statusCode}); redirects are not followed.`);
  }
  if (!isExtensionAnswerStatus(answer.statusCode)) throw new ExtensionBadResponseError(`The extension answered status ${answer.statusCode}.`);
  if (answer.contentType !== undefined && !namesJsonMediaType(answer.contentType)) {
    throw new ExtensionBadResponseError(`The extension answered ${answer.contentType}, not JSON.`);
  }
  const text = answer.body.toString('utf8');
  if (text.trim() === '') throw new ExtensionBadResponseError('The extension answered no body; a JSON body is required.');
  try {
    return { statusCode: answer.statusCode, body: JSON.parse(text) as JsonValue };
  } catch {
    throw new ExtensionBadResponseError('The extension did not answer JSON.');
  }
}

/** Query parameters in the order they came (by first occurrence of each name), percent-encoded. */
export function encodeQuery(query: ReadonlyMap<string, readonly string[]>): string {
  const pairs: string[] = [];
  for (const [name, values] of query) {
    for (const value of values) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return pairs.join('&');
}

function noBinding(action: string, projectKey: string): DomainError {
  return new DomainError([
    {
      code: 'ResourceNotFound',
      message: `No extension handler is bound to the action '${action}' in project '${projectKey}'.`,
      action,
    },
  ]);
}

/** Waits for `promise` until the deadline; anything but our own refusals means it could not be invoked. */
function untilDeadline<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  const timedOut = () => new ExtensionTimeoutError(timeoutMs);
  return untilAborted(promise, signal, timedOut).catch((error: unknown) => {
    if (signal.aborted) throw timedOut();
    if (error instanceof ExtensionCallError) throw error;
    throw new ExtensionUnreachableError(`The extension function could not be invoked (${(error as Error)?.name ?? 'error'}).`);
  });
}
