/**
 * The service through the official commercetools TypeScript SDK client (`@commercetools/ts-client`):
 * the client-credentials flow, the HTTP middleware (retrying 503 and lost connections), and the
 * concurrent-modification middleware, which retries a 409 ConcurrentModification at the
 * `currentVersion` the error names. Writes carry an `Idempotency-Key`, so a retry never does them twice.
 *
 *   npx tsx examples/sdk-client.ts      # against `npm start`; BASE_URL, PROJECT_KEY, CLIENT_ID, CLIENT_SECRET to change
 *
 * This API is not part of the platform SDK's typed API (`@commercetools/platform-sdk`), so requests are
 * the generic `{ uri, method, body }` of the SDK's client. The test suite runs this file against the
 * local service (test/integration/sdk-example.test.ts).
 */
import { ClientBuilder, type ClientRequest } from '@commercetools/ts-client';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:8080';
const projectKey = process.env.PROJECT_KEY ?? 'demo';

const client = new ClientBuilder()
  .withProjectKey(projectKey)
  .withClientCredentialsFlow({
    host: baseUrl,
    projectKey,
    credentials: { clientId: process.env.CLIENT_ID ?? 'local-dev-client', clientSecret: process.env.CLIENT_SECRET ?? 'local-dev-secret' },
    scopes: [`manage_test:${projectKey}`],
    httpClient: fetch,
  })
  // Retries 503 and failed connections with the same request: safe for writes that carry an Idempotency-Key.
  .withHttpMiddleware({ host: baseUrl, httpClient: fetch, enableRetry: true, retryConfig: { maxRetries: 3, retryOnAbort: true } })
  .withConcurrentModificationMiddleware()
  .build();

interface Resource {
  id: string;
  key: string;
  version: number;
  someProperty?: string;
}

/** One request through the middleware chain; an error answer rejects with the service's error body. */
async function send(request: ClientRequest): Promise<Resource> {
  const { body } = await client.execute<Resource>(request);
  if (!body) throw new Error(`${request.method} ${request.uri} answered no body`);
  return body;
}

const resources = `/${projectKey}/resource`;
const key = `sdk-example-${Date.now()}`;

// Create (201, version 1), with an Idempotency-Key: a fresh one per operation, kept for its retries.
const create: ClientRequest = {
  uri: resources,
  method: 'POST',
  headers: { 'Idempotency-Key': crypto.randomUUID() },
  body: { key, objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['dog'] } },
};
const created = await send(create);
console.log(`created ${created.key}: version ${created.version}`);

// The same request again, as a retry after a lost answer sends it: the first answer, nothing done twice.
const retried = await send(create);
console.log(`sent again with the same Idempotency-Key: ${retried.id === created.id && retried.version === 1 ? 'the same answer' : 'ANOTHER ANSWER'}`);

// Update, on purpose at a stale version: the service answers 409 with currentVersion 1, and the
// concurrent-modification middleware sends the same actions again at that version.
const updated = await send({
  uri: `${resources}/${created.id}`,
  method: 'POST',
  body: { version: 99, actions: [{ action: 'changeSomeProperty', someProperty: 'set through the SDK' }] },
});
console.log(`updated after a stale version: version ${updated.version}, someProperty ${JSON.stringify(updated.someProperty)}`);

// Read it by key, then delete it.
const read = await send({ uri: `${resources}/key=${key}`, method: 'GET' });
console.log(`read by key: id ${read.id === created.id ? 'matches' : 'DIFFERS'}`);
const deleted = await send({ uri: `${resources}/${created.id}?version=${read.version}`, method: 'DELETE' });
console.log(`deleted: version ${deleted.version}`);
