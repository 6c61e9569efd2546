/**
 * Every resource of a project, page by page, through the official SDK client: by cursor
 * (`sort=id asc`, `where=id > "<last id>"`, `withTotal=false`), so that each page reads one page of
 * the table however deep it is — an offset would read and pass over everything before it.
 *
 *   npx tsx examples/sdk-walk.ts        # against `npm start`; BASE_URL, PROJECT_KEY, CLIENT_ID, CLIENT_SECRET, PAGE_SIZE to change
 *
 * The test suite runs this file against the local service (test/integration/sdk-example.test.ts).
 */
import { ClientBuilder } from '@commercetools/ts-client';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:8080';
const projectKey = process.env.PROJECT_KEY ?? 'demo';
const pageSize = Number(process.env.PAGE_SIZE ?? 500);

const client = new ClientBuilder()
  .withProjectKey(projectKey)
  .withClientCredentialsFlow({
    host: baseUrl,
    projectKey,
    credentials: { clientId: process.env.CLIENT_ID ?? 'local-dev-client', clientSecret: process.env.CLIENT_SECRET ?? 'local-dev-secret' },
    scopes: [`view_test:${projectKey}`],
    httpClient: fetch,
  })
  .withHttpMiddleware({ host: baseUrl, httpClient: fetch })
  .build();

interface Resource {
  id: string;
}

/** The project's resources in id order, one page per request. */
async function* everyResource(): AsyncIterable<Resource> {
  let last: string | undefined;
  for (;;) {
    const where = last === undefined ? '' : `&where=${encodeURIComponent(`id > "${last}"`)}`;
    const { body } = await client.execute<{ results: Resource[] }>({
      uri: `/${projectKey}/resource?sort=${encodeURIComponent('id asc')}&limit=${pageSize}&withTotal=false${where}`,
      method: 'GET',
    });
    const results = body?.results ?? [];
    yield* results;
    if (results.length < pageSize) return;
    last = results.at(-1)!.id;
  }
}

const ids: string[] = [];
for await (const resource of everyResource()) ids.push(resource.id);
const inOrder = ids.every((id, index) => index === 0 || ids[index - 1]! < id);
console.log(`walked ${ids.length} resources${inOrder ? ', in id order' : ', OUT OF ORDER'}`);
