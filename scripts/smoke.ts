/**
 * `npm run smoke -- --stack <StackName>` or `npm run smoke -- --url <base URL>`: does this deployment
 * work? Creates a temporary API client in the service's table, then through the API: token → create and
 * delete a subscription → create → read by id and by key → update → stale update (409 with currentVersion) → query → search → delete; removes
 * the resource (if a step failed before deleting it) and the client, prints a table of the steps,
 * and exits 1 if any step failed (2 on a usage error).
 *
 *   --stack <name>  the base URL from the stack's outputs (CustomDomainUrl, else ApiUrl) and its table
 *   --url <base>    any base URL; the table as `npm run client` finds it (the local stack by default,
 *                   or --table/--endpoint, or --stack for the table of a deployed stack)
 *   --project <key> the project the checks write into (default smoke-check)
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { generateSecret, hashSecret } from '../shared/auth/client-secrets';
import { PROJECT_KEY_PATTERN } from '../shared/auth/scopes';
import { DynamoDbClientStore } from '../shared/store/dynamodb/client-store';
import { clientKey } from '../shared/store/dynamodb/keys';
import { STORE_OPTIONS, STORE_USAGE, UsageError, openServiceTable, stackOutputs, storeOptionsOf } from './service-table';

const USAGE = `Usage: npm run smoke -- (--stack <StackName> | --url <base URL>) [--project <key>] [store options]

${STORE_USAGE}`;

/** The fields of the API's answers the checks read. */
interface Answer {
  id?: string;
  key?: string;
  version?: number;
  access_token?: string;
  message?: string;
  results?: { id: string }[];
  errors?: { code: string; currentVersion?: number }[];
}

/**
 * How long the search step waits for the created resource to be found: the index follows the table's
 * stream (about a second), and a search cluster paused at 0 ACU first resumes (about 15 s).
 */
const SEARCH_WAIT_MS = 30_000;

interface Step {
  name: string;
  expected: string;
  got: string;
  ms: number;
  ok: boolean;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { ...STORE_OPTIONS, url: { type: 'string' }, project: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) return (console.log(USAGE), 0);
  if (!values.url && !values.stack) throw new UsageError('Give --stack <StackName> or --url <base URL>.');
  const project = values.project ?? 'smoke-check';
  if (!PROJECT_KEY_PATTERN.test(project)) throw new UsageError(`--project ${project} is not a project key (2–256 of A-Z a-z 0-9 _ -).`);
  let url = values.url;
  if (url === undefined) {
    const outputs = await stackOutputs(values.stack!, values.region);
    url = outputs.CustomDomainUrl ?? outputs.ApiUrl;
    if (!url) throw new UsageError(`Stack ${values.stack} has no ApiUrl output: is it a Generic Resource Service stack?`);
  }
  const baseUrl = url.replace(/\/+$/, '');

  const { db, tableName, store: clients, where } = await openServiceTable(storeOptionsOf(values), DynamoDbClientStore);
  const clientId = `smoke-${randomBytes(9).toString('base64url')}`;
  const secret = generateSecret();
  console.log(`Smoke check of ${baseUrl} (project ${project}; temporary client ${clientId} in ${where})\n`);
  await clients.put({
    clientId,
    name: 'smoke check (temporary)',
    secretHash: await hashSecret(secret),
    scopes: [`manage_test:${project}`, `view_test:${project}`, `manage_subscriptions:${project}`],
    createdAt: new Date().toISOString(),
  });
  let steps: Step[] = [];
  try {
    steps = await runChecks(baseUrl, project, { clientId, secret });
  } finally {
    await db.send(new DeleteCommand({ TableName: tableName, Key: clientKey(clientId) }));
  }
  printTable([...steps, { name: 'remove the temporary client', expected: 'deleted', got: 'deleted', ms: 0, ok: true }]);
  const failed = steps.filter((step) => !step.ok).length;
  console.log(failed === 0 ? '\nAll checks passed.' : `\n${failed} check(s) failed.`);
  return failed === 0 ? 0 : 1;
}

/** The checks, in order; a step that cannot run because an earlier one failed is reported as skipped. */
async function runChecks(baseUrl: string, project: string, client: { clientId: string; secret: string }): Promise<Step[]> {
  const steps: Step[] = [];
  const key = `smoke-${randomBytes(6).toString('hex')}`;
  let token = '';
  let id = '';
  let deleted = false;

  async function step(name: string, expected: number, request: () => Promise<Response>, check: (body: Answer | undefined) => string | undefined = () => undefined) {
    const started = performance.now();
    let got: string;
    let ok = false;
    let body: Answer | undefined;
    try {
      const response = await request();
      const text = await response.text();
      body = text ? JSON.parse(text) : undefined;
      const problem = response.status === expected ? check(body) : undefined;
      ok = response.status === expected && problem === undefined;
      got = `${response.status}${problem ? ` (${problem})` : ''}${!ok && body?.message ? ` ${body.message}` : ''}`;
    } catch (error) {
      got = `no answer: ${(error as Error).cause ?? (error as Error).message}`;
    }
    steps.push({ name, expected: String(expected), got, ms: Math.round(performance.now() - started), ok });
    return ok ? body : undefined;
  }
  const skip = (name: string, expected: number) => steps.push({ name, expected: String(expected), got: 'skipped', ms: 0, ok: false });
  // A path under the project: the resource type's, or subscriptions'.
  const call = (method: string, path: string, body?: unknown) => () =>
    fetch(`${baseUrl}/${project}/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const tokenAnswer = await step('token (client credentials)', 200, () =>
    fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }),
  );
  token = tokenAnswer?.access_token ?? '';
  // The steps after the token, skipped from where one they depend on failed.
  const later: [string, number][] = [
    ['create a subscription', 201], ['delete it at version 1', 200], ['create', 201], ['read by id', 200], ['read by key', 200],
    ['update at version 1', 200], ['stale update at version 1', 409], ['query by key', 200], ['search by text', 200], ['delete at version 2', 200],
  ];
  if (!token) {
    later.forEach(([name, expected]) => skip(name, expected));
    return steps;
  }

  // A subscription lives while no resource changes: nothing is sent to its (made-up) queue.
  const destination = { type: 'SQS', queueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/smoke-check' };
  const subscription = await step('create a subscription', 201, call('POST', 'subscriptions', { key, destination, changes: [{ resourceTypeId: 'resource' }] }));
  if (subscription) await step('delete it at version 1', 200, call('DELETE', `subscriptions/key=${key}?version=1`));
  else skip('delete it at version 1', 200);

  // A word no other resource holds, for the search to find.
  const word = `smoke${randomBytes(6).toString('hex')}`;
  const draft = { key, objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['smoke', word] } };
  const created = await step('create', 201, call('POST', 'resource', draft), (body) => (body?.version === 1 ? undefined : `version ${body?.version}`));
  id = created?.id ?? '';
  try {
    if (!id) {
      later.slice(3).forEach(([name, expected]) => skip(name, expected));
      return steps;
    }
    await step('read by id', 200, call('GET', `resource/${id}`), (body) => (body?.key === key ? undefined : 'another resource'));
    await step('read by key', 200, call('GET', `resource/key=${key}`), (body) => (body?.id === id ? undefined : 'another resource'));
    const update = { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'smoke' }] };
    await step('update at version 1', 200, call('POST', `resource/${id}`, update), (body) => (body?.version === 2 ? undefined : `version ${body?.version}`));
    await step('stale update at version 1', 409, call('POST', `resource/${id}`, update), (body) =>
      body?.errors?.[0]?.code === 'ConcurrentModification' && body.errors[0]?.currentVersion === 2 ? undefined : 'no ConcurrentModification with currentVersion 2',
    );
    const findsIt = (body: Answer | undefined) => (body?.results?.length === 1 && body.results[0]?.id === id ? undefined : `${body?.results?.length ?? 'no'} results`);
    await step('query by key', 200, call('GET', `resource?where=${encodeURIComponent(`key="${key}"`)}`), findsIt);
    await step('search by text', 200, () => eventually(call('GET', `resource/searchApiPattern?text.en=${word}`), findsIt), findsIt);
    deleted = (await step('delete at version 2', 200, call('DELETE', `resource/${id}?version=2`))) !== undefined;
    return steps;
  } finally {
    // Leave nothing behind, whatever failed in between.
    if (id && !deleted) await call('DELETE', `resource/${id}`)().catch(() => undefined);
  }
}

/** Asks again while the answer is 503 (the search cluster resuming) or does not pass the check yet, up to SEARCH_WAIT_MS. */
async function eventually(request: () => Promise<Response>, check: (body: Answer | undefined) => string | undefined): Promise<Response> {
  const deadline = Date.now() + SEARCH_WAIT_MS;
  for (;;) {
    const response = await request();
    const settled = response.status === 200 ? check(JSON.parse(await response.clone().text())) === undefined : response.status !== 503;
    if (settled || Date.now() >= deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function printTable(steps: Step[]): void {
  const rows = [['step', 'expected', 'got', 'ms', ''], ...steps.map((step) => [step.name, step.expected, step.got, String(step.ms), step.ok ? 'ok' : 'FAILED'])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(`smoke: ${(error as Error).name}: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
