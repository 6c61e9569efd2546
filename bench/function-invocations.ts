import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { GatewayRequest } from '../local/lambda-events';
import type { LocalStack } from '../local/stack';

/** What an invocation may use: the running local stack, a token, the bench client and its project. */
export interface InvocationContext {
  stack: LocalStack;
  token: string;
  project: string;
  client: { clientId: string; clientSecret: string };
  /** A resource created for the bench (GET, update, complex path read it). */
  resource: { id: string; key: string };
}

/**
 * One realistic first request per function, as a client sends it to the gateway: the bench turns
 * it into the API Gateway event the function receives. `prepare` makes state a request needs and
 * runs before every fresh process (an update needs the current version, a delete its own resource).
 * `expect` is the status the answer must have, so a refusal never passes for a fast cold start.
 */
export interface Invocation {
  request: (context: InvocationContext) => Promise<GatewayRequest> | GatewayRequest;
  expect: number;
}

/** The stream's consumer is no endpoint: its first event is a batch of one change of a bench resource. */
export const changeBatch = (context: InvocationContext) => {
  const at = new Date().toISOString();
  const item = { pk: `PROJECT#${context.project}`, sk: `RESOURCE#${context.resource.id}`, id: context.resource.id, version: 1, createdAt: at, lastModifiedAt: at };
  return { Records: [{ eventName: 'INSERT', dynamodb: { SequenceNumber: String(Date.now()), ApproximateCreationDateTime: Date.now() / 1000, NewImage: marshall(item) } }] };
};

/** A 1×1 GIF: the smallest image the checks accept. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const bearer = (context: InvocationContext) => ({ authorization: `Bearer ${context.token}` });
const basic = (context: InvocationContext) => ({
  authorization: `Basic ${Buffer.from(`${context.client.clientId}:${context.client.clientSecret}`).toString('base64')}`,
  'content-type': 'application/x-www-form-urlencoded',
});
const json = (context: InvocationContext, value: unknown) => ({
  headers: { ...bearer(context), 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});
const none = Buffer.alloc(0);
const draft = (key?: string) => ({ ...(key ? { key } : {}), objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['cold', 'start'] } });

/** A measured function runs outside local mode, where a webhook must be public https: a queue instead (never sent to). */
const BENCH_QUEUE = { type: 'SQS', queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/bench' };

/**
 * A subscription draft, once the bench project has none left: every measured change would
 * otherwise be sent to them (a closed loopback port: parked, then dropped with the subscription).
 */
async function subscriptionDraft(context: InvocationContext, destination: unknown = { type: 'HTTP', url: 'http://127.0.0.1:9/bench' }) {
  const { results } = (await api(context, 'GET', `/${context.project}/subscriptions?limit=500`)) as { results: { id: string; version: number }[] };
  for (const { id, version } of results) await api(context, 'DELETE', `/${context.project}/subscriptions/${id}?version=${version}`);
  return { destination, changes: [{ resourceTypeId: 'resource' }] };
}

/** Calls the running stack over HTTP (state for a request, not the request measured). */
export async function api(context: InvocationContext, method: string, path: string, body?: unknown) {
  const response = await fetch(`${context.stack.url}${path}`, {
    method,
    headers: { ...bearer(context), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

export const invocations: Record<string, Invocation> = {
  'issue-token': {
    request: (context) => ({ method: 'POST', url: '/oauth/token', headers: basic(context), body: Buffer.from('grant_type=client_credentials') }),
    expect: 200,
  },
  'introspect-token': {
    request: (context) => ({ method: 'POST', url: '/oauth/introspect', headers: basic(context), body: Buffer.from(`token=${context.token}`) }),
    expect: 200,
  },
  'get-jwks': { request: () => ({ method: 'GET', url: '/oauth/jwks', headers: {}, body: none }), expect: 200 },
  'get-authorization-server-metadata': { request: () => ({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: {}, body: none }), expect: 200 },
  'get-resource': {
    request: (context) => ({ method: 'GET', url: `/${context.project}/resource/${context.resource.id}`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'query-resources': {
    request: (context) => ({ method: 'GET', url: `/${context.project}/resource?limit=20`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'check-resources-exist': {
    request: (context) => ({ method: 'HEAD', url: `/${context.project}/resource`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'query-sorted-resources': {
    request: (context) => ({ method: 'GET', url: `/${context.project}/resource/sorted-query-parameters?sort=id%20asc&limit=20`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'search-resources': {
    request: (context) => ({ method: 'GET', url: `/${context.project}/resource/searchApiPattern?text.en=cold&limit=20`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'create-resource': {
    request: (context) => ({ method: 'POST', url: `/${context.project}/resource`, ...json(context, draft()) }),
    expect: 201,
  },
  'overwrite-resource': {
    request: (context) => ({ method: 'PATCH', url: `/${context.project}/resource`, ...json(context, draft(context.resource.key)) }),
    expect: 200,
  },
  'put-resource': {
    request: (context) => ({ method: 'PUT', url: `/${context.project}/resource`, ...json(context, draft(context.resource.key)) }),
    expect: 200,
  },
  'update-resource': {
    request: async (context) => {
      const { version } = await api(context, 'GET', `/${context.project}/resource/${context.resource.id}`);
      const update = { version, actions: [{ action: 'changeSomeProperty', someProperty: `cold start ${Date.now()}` }] };
      return { method: 'POST', url: `/${context.project}/resource/${context.resource.id}`, ...json(context, update) };
    },
    expect: 200,
  },
  'create-subscription': {
    request: async (context) => ({ method: 'POST', url: `/${context.project}/subscriptions`, ...json(context, await subscriptionDraft(context, BENCH_QUEUE)) }),
    expect: 201,
  },
  'get-subscriptions': {
    request: (context) => ({ method: 'GET', url: `/${context.project}/subscriptions`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'delete-subscription': {
    request: async (context) => {
      const { id } = await api(context, 'POST', `/${context.project}/subscriptions`, await subscriptionDraft(context));
      return { method: 'DELETE', url: `/${context.project}/subscriptions/${String(id)}?version=1`, headers: bearer(context), body: none };
    },
    expect: 200,
  },
  'delete-resource': {
    request: async (context) => {
      const { id, version } = await api(context, 'POST', `/${context.project}/resource`, draft());
      return { method: 'DELETE', url: `/${context.project}/resource/${String(id)}?version=${String(version)}`, headers: bearer(context), body: none };
    },
    expect: 200,
  },
  'post-complex-path': {
    request: (context) => ({
      method: 'POST',
      // A new (one, two) pair each time: the document is stored, 201.
      url: `/${context.project}/resource/artificially-complex/path/uri-parameter-one=cold/start-${randomUUID()}`,
      ...json(context, { id: context.resource.id, custom: 'cold start' }),
    }),
    expect: 201,
  },
  'upload-image': {
    request: (context) => ({
      method: 'POST',
      url: `/${context.project}/resource/images?sku=cold-start&filename=pixel.gif`,
      headers: { ...bearer(context), 'content-type': 'image/gif' },
      body: GIF,
    }),
    expect: 200,
  },
  'start-image-upload': {
    request: (context) => ({
      method: 'POST',
      url: `/${context.project}/resource/images/uploads?sku=cold-start&filename=pixel.gif&contentType=image/gif&size=${GIF.length}`,
      headers: bearer(context),
      body: none,
    }),
    expect: 201,
  },
  'complete-image-upload': {
    request: async (context) => {
      const ticket = (await api(
        context,
        'POST',
        `/${context.project}/resource/images/uploads?sku=cold-start&filename=pixel.gif&contentType=image/gif&size=${GIF.length}`,
      )) as { uploadId: string; url: string; method: string; headers: Record<string, string> };
      const put = await fetch(ticket.url, { method: ticket.method, headers: ticket.headers, body: GIF });
      if (put.status !== 200) throw new Error(`PUT to the presigned URL: ${put.status}`);
      return { method: 'POST', url: `/${context.project}/resource/images/uploads/${ticket.uploadId}`, headers: bearer(context), body: none };
    },
    expect: 200,
  },
  'call-extension-action': {
    request: (context) => ({ method: 'GET', url: `/${context.project}/resource/namespace-action-with-example`, headers: bearer(context), body: none }),
    expect: 200,
  },
  'put-json-value': {
    request: (context) => ({ method: 'PUT', url: `/${context.project}/resource/json-serializable-primitive-type`, ...json(context, { cold: 'start' }) }),
    expect: 200,
  },
  'get-openapi': { request: () => ({ method: 'GET', url: '/openapi.json', headers: {}, body: none }), expect: 200 },
  'get-api-docs': { request: () => ({ method: 'GET', url: '/docs', headers: {}, body: none }), expect: 200 },
  'route-not-found': { request: () => ({ method: 'GET', url: '/no/such/route/here', headers: {}, body: none }), expect: 404 },
  // The authorizer's event is the one API Gateway sends for a GET by id with a fresh token.
  authorizer: {
    request: (context) => ({ method: 'GET', url: `/${context.project}/resource/${context.resource.id}`, headers: bearer(context), body: none }),
    expect: 200,
  },
};
