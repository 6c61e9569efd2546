import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import { StoreUnavailableError } from '../domain/errors';
import { IDEMPOTENCY_RECORD_SECONDS } from '../domain/limits';
import type { ApiEvent, ApiResult } from './api-types';
import { idempotencyKeyInFlight, idempotencyKeyReused } from './errors';

/** Answers a request (rendered, not yet fitted for Lambda): what endpoint() runs after its middleware. */
export type Answer = (event: ApiEvent) => Promise<ApiResult>;
/** Makes `answer` answer a retry as it answered the first request (see idempotencyKeys). */
export type Replay = (answer: Answer) => (event: ApiEvent, context: Context) => Promise<ApiResult>;

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const config = new IdempotencyConfig({
  // The record is the project's (its partition) and this client's, method's, path's and key's; no key, no record.
  eventKeyJmesPath: `headers."${IDEMPOTENCY_KEY_HEADER}" && [requestContext.authorizer.lambda.clientId, requestContext.http.method, rawPath, headers."${IDEMPOTENCY_KEY_HEADER}"]`,
  // "The same request": the same body (parsed JSON compares by value) and query string.
  payloadValidationJmesPath: '[body, rawQueryString]',
  throwOnNoIdempotencyKey: false,
  expiresAfterSeconds: IDEMPOTENCY_RECORD_SECONDS,
});

/**
 * The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header), by Powertools'
 * idempotency utility: the first request with a key runs and its successful answer (status, body,
 * headers) is kept 24 h; a retry with the same key and the same request gets that answer again
 * without running; the same key with another body or query is 422, and while the first still runs
 * 409. Refusals and failures keep nothing (Powertools deletes the record): a refused request did
 * nothing, so running it again cannot do anything twice — and the SDK's retry of a 409
 * ConcurrentModification at the new version, same key, runs. Without the header nothing changes.
 * `makeIdempotent`, not Powertools' middy middleware: that one's onError deletes the record of the
 * request it refused as a duplicate (powertools-lambda-typescript#5675), which lets a third copy run.
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
