import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { JSON_BODY_LIMIT_BYTES } from '../domain/limits';
import type { ApiEvent } from './api-types';
import { bodyLimit } from './middleware/body-limit';
import { jsonBodyChecks } from './middleware/json-body';
import { jsonContentType } from './middleware/json-content-type';

/** Middlewares that turn a request's body into what the handler reads, in order, before it runs. */
export type BodyPipeline = () => Pick<middy.MiddlewareObj<ApiEvent>, 'before'>[];

/**
 * How a JSON route's body is read: its size limited before anything parses it, the JSON media
 * type, the parse, then the depth and text checks. Handed to `endpoint` by the functions with a route that
 * takes JSON (the declaration's `body: 'json'`, which `endpoint` holds it to), so that the others
 * carry none of it (≈ 2 KB of every bundle); it runs for those routes only.
 */
export const jsonBody: BodyPipeline = () => [bodyLimit(JSON_BODY_LIMIT_BYTES), jsonContentType(), httpJsonBodyParser(), jsonBodyChecks()];
