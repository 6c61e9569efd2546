import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AuthorizerContext, Principal } from '../auth/principal';
import type { QueryParameters } from './query-parameters';
import type { RouteDeclaration } from './declaration';

/**
 * The shapes the HTTP adapter passes around: the Lambda event and result (API Gateway payload
 * 2.0), and what a handler sees and answers. Types only, so the endpoint builder and its
 * middleware both depend on this module and never on each other.
 */
export type ApiEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext>;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** What a handler sees of its request: decoded, parsed, and already authorized. */
export interface ApiRequest<PathParameter extends string = string> {
  /** The declared route being served (an endpoint may serve several). */
  route: RouteDeclaration;
  method: string;
  rawPath: string;
  /** The path's projectKey ('' on routes outside a project). */
  projectKey: string;
  path: Record<PathParameter, string>;
  query: QueryParameters;
  /** Parsed JSON on JSON routes, the raw bytes on binary routes, the text on form and text routes. */
  body: unknown;
  headers: Record<string, string | undefined>;
  principal?: Principal;
  correlationId: string;
  /** The caller's address as API Gateway saw it (the brute-force brake counts per source). */
  sourceIp: string;
}

export interface ApiResponse {
  statusCode: number;
  /** Sent as JSON. */
  body?: unknown;
  /** A body that is not JSON (the API reference's HTML, CSS, JavaScript), sent as is; set its content-type in `headers`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export type EndpointHandler<PathParameter extends string = string> = (request: ApiRequest<PathParameter>) => Promise<ApiResponse>;
