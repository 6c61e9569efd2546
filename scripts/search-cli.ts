/**
 * `npm run search -- reindex --project <p> …`: rebuilds projects' part of the search index from the
 * table (the record), beside the stream that keeps it current. `npm run search -- replay`: indexes
 * what the indexer's failure destination keeps (records set aside, batches given up) and removes
 * what it indexed. With `--stack`, the stack's function does the work (only functions in the VPC
 * reach the cluster), invoked again with the cursor it answers until done; otherwise this process
 * runs the same handler (USAGE).
 *
 * Projects are named: listing them would take a Scan of the whole table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { indexChanges } from '../functions/index-changes/function';
import type { ReindexEvent, ReplayEvent } from '../functions/index-changes/handler';
import { asFunction, enforceTableGrants } from '../local/table-access';
import type { ReplayProgress } from '../shared/services/search-feed';
import type { ReindexProgress } from '../shared/services/search-indexing';
import { STORE_OPTIONS, STORE_USAGE, UsageError, commandOf, resolveServiceTable, runCli, stackOutputs, storeOptionsOf, type StoreOptions } from './service-table';

const USAGE = `Usage:
  npm run search -- reindex --project <p> [--project <q> …]
  npm run search -- replay
${STORE_USAGE}
Search:  with --stack, the stack's index-changes function; otherwise SEARCH_DATABASE_URL, else the
         local stack's search database (endpoints.json). replay reads the failure bucket
         (SEARCH_INDEX_FAILURES_BUCKET, else the local stack's).`;

const OPTIONS = { project: { type: 'string', multiple: true }, ...STORE_OPTIONS, help: { type: 'boolean', short: 'h', default: false } } as const;

/** One run of the handler, reindex or replay: wherever it runs, it answers how far it got. */
type Run = <E extends ReindexEvent | ReplayEvent>(event: E) => Promise<E extends ReindexEvent ? ReindexProgress : ReplayProgress>;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = commandOf(USAGE, values.help, positionals);
  if (!command) return;
  if (command !== 'reindex' && command !== 'replay') throw new UsageError(`Unknown command '${command}'.`);
  if (command === 'reindex' && !values.project?.length) throw new UsageError('--project is required (once per project).');
  const options = storeOptionsOf(values);
  const indexer = options.stack !== undefined ? await stackFunction(options.stack, options.region) : await inThisProcess(options);
  try {
    if (command === 'replay') {
      const total = { replayed: 0, kept: 0 };
      let cursor: string | undefined;
      do {
        const progress = await indexer.run({ replay: { cursor } });
        total.replayed += progress.replayed;
        total.kept += progress.kept;
        cursor = progress.cursor;
      } while (cursor !== undefined);
      console.log(`Replayed the search index's failures (${indexer.where}): ${total.replayed} indexed and removed, ${total.kept} still failing, kept.`);
      return;
    }
    for (const projectKey of values.project!) {
      const total = { indexed: 0, removed: 0 };
      let cursor: string | undefined;
      do {
        const progress = await indexer.run({ reindex: { projectKey, cursor } });
        total.indexed += progress.indexed;
        total.removed += progress.removed;
        cursor = progress.cursor;
      } while (cursor !== undefined);
      console.log(`Reindexed project ${projectKey} (${indexer.where}): ${total.indexed} resources indexed, ${total.removed} removed.`);
    }
  } finally {
    await indexer.close();
  }
}

/** The deployed function, through Lambda Invoke (a run lasts until about a minute before its timeout). */
async function stackFunction(stackName: string, region: string | undefined) {
  const functionName = (await stackOutputs(stackName, region)).SearchIndexerFunctionName;
  if (!functionName) throw new UsageError(`Stack ${stackName} has no SearchIndexerFunctionName output: is it a Generic Resource Service stack with search?`);
  const lambda = new LambdaClient(region ? { region } : {});
  const run = (async (event) => {
    const answer = await lambda.send(new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(event)) }));
    const payload = answer.Payload ? Buffer.from(answer.Payload).toString('utf8') : '';
    if (answer.FunctionError) throw new Error(`${functionName} failed: ${payload}`);
    return JSON.parse(payload);
  }) as Run;
  return { run, where: `function ${functionName} of stack ${stackName}`, close: async () => lambda.destroy() };
}

/** The handler in this process, configured through the environment as in Lambda. */
async function inThisProcess(options: StoreOptions) {
  const env = process.env;
  const readFile = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
  const table = resolveServiceTable(options, env, readFile);
  if (table.kind !== 'table') throw new UsageError('--stack runs the stack\'s function.');
  const endpointsFile = resolve(options.dataDir ?? env.LOCAL_DATA_DIR ?? '.local', 'endpoints.json');
  const local = JSON.parse(readFile(endpointsFile) ?? '{}') as { searchDatabaseUrl?: string; s3Endpoint?: string; searchIndexFailuresBucket?: string };
  const searchDatabaseUrl = env.SEARCH_DATABASE_URL ?? local.searchDatabaseUrl;
  if (!searchDatabaseUrl) throw new UsageError(`No search database: SEARCH_DATABASE_URL is not set and ${endpointsFile} names none (is the local stack running? npm start).`);
  Object.assign(env, {
    TABLE_NAME: table.tableName,
    SEARCH_DATABASE_URL: searchDatabaseUrl,
    ...(table.region ? { AWS_REGION: table.region } : {}),
    ...(table.endpoint
      ? // DynamoDB Local accepts any credentials; real ones win when they are set.
        { AWS_ENDPOINT_URL_DYNAMODB: table.endpoint, ...(env.AWS_ACCESS_KEY_ID ? {} : { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' }) }
      : {}),
    // The local stack's failure bucket, in its S3 emulator (which takes only its own credentials; DynamoDB Local takes any).
    ...(env.SEARCH_INDEX_FAILURES_BUCKET || !local.searchIndexFailuresBucket
      ? {}
      : { SEARCH_INDEX_FAILURES_BUCKET: local.searchIndexFailuresBucket, AWS_ENDPOINT_URL_S3: local.s3Endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }),
  });
  const { handler } = await import('../functions/index-changes/handler');
  const { dynamoDb, closeSearchPools } = await import('../shared/composition-root');
  // As in the local stack: the table refuses what the function's permissions would not let it do in AWS.
  enforceTableGrants(dynamoDb());
  return {
    run: ((event: ReindexEvent | ReplayEvent) => asFunction(indexChanges, () => handler(event as ReindexEvent))) as Run,
    where: `table ${table.tableName}${table.endpoint ? ` at ${table.endpoint}` : ''} (from ${table.source})`,
    close: closeSearchPools,
  };
}

await runCli('search', USAGE, () => main(process.argv.slice(2)));
