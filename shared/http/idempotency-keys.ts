import { createHash } from 'node:crypto';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import { StoreUnavailableError } from '../domain/errors';
import { IDEMPOTENCY_RECORD_SECONDS } from '../domain/limits';
import type { ApiEvent, ApiRequest, ApiResult } from './api-types';
import { idempotencyKeyInFlight, idempotencyKeyReused } from './errors';

/** Answers a request (rendered, not yet fitted for Lambda): what endpoint() runs after its middleware. */
export type Answer = (event: ApiEvent) => Promise<ApiResult>;
/** Makes `answer` answer a retry as it answered the first request (see idempotencyKeys). */
export type Replay = (answer: Answer) => (event: ApiEvent, context: Context) => Promise<ApiResult>;

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const config = new IdempotencyConfig({
  // The record is the project's (its partition) and this client's, method's, path's and key's; no key, no record.
  eventKeyJmesPath: `headers."${IDEMPOTENCY_KEY_HEADER}" && [requestContext.authorizer.lambda.clientId, requestContext.http.method, rawPath, headers."${IDEMPOTENCY_KEY_HEADER}"]`,
  // "The same request": the same body (parsed JSON compares by value) and query string.
  payloadValidationJmesPath: '[body, rawQueryString]',
  throwOnNoIdempotencyKey: false,
  expiresAfterSeconds: IDEMPOTENCY_RECORD_SECONDS,
});

/**
 * The `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header), by Powertools: a
 * successful answer is kept 24 h and answers the same request again without running it; another
 * request with the key is 422, one while the first runs 409. Refusals and failures keep nothing: they
 * did nothing, so the key may run again (the SDK retries a 409 at the new version with the same key).
 * `makeIdempotent`, not the middy middleware, whose onError deletes the record of a request it
 * refused as a duplicate (powertools-lambda-typescript#5675), letting a third copy run.
 */
export const idempotencyKeys =
  (recordsOf: (projectKey: string) => { persistenceStore: BasePersistenceLayer; keyPrefix: string }): Replay =>
  (answer) =>
  async (event, context) => {
    if (!event.headers[IDEMPOTENCY_KEY_HEADER]) return answer(event);
    let answered: ApiResult | undefined;
    const once = makeIdempotent(async (request: ApiEvent, _context: Context) => (answered = await answer(request)), {
      ...recordsOf(event.pathParameters?.projectKey ?? ''),
      config,
    });
    try {
      return await once(event, context);
    } catch (error) {
      // Done, but its answer could not be kept: the answer, not a 503 that invites doing it again.
      if (answered && (error as Error).name === 'IdempotencyPersistenceLayerError') return answered;
      throw refusalOf(error);
    }
  };

/**
 * The request under its Idempotency-Key (client, method, path, key and body), hashed; none without
 * the header. A create passes it to the store, which records the resource it makes under it:
 * Powertools forgets a request that failed, and a 503 after the store applied the create is one.
 * The body is in it so that another body under the key (Powertools' 422 while it keeps a record)
 * is never answered with the resource made of the first.
 */
export function idempotencyHashOf(request: ApiRequest): string | undefined {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (!key) return undefined;
  const identity = [request.principal?.clientId, request.method, request.rawPath, key, request.body];
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url');
}

function refusalOf(error: unknown): unknown {
  switch ((error as Error)?.name) {
    case 'IdempotencyValidationError':
      return idempotencyKeyReused();
    case 'IdempotencyAlreadyInProgressError':
      return idempotencyKeyInFlight();
    case 'IdempotencyPersistenceLayerError':
    case 'IdempotencyInconsistentStateError':
      return new StoreUnavailableError(error);
    default:
      return error;
  }
}
