/**
 * Where the operator CLIs (`npm run client`, `npm run extension`) find the service's DynamoDB
 * table: the store options they share and one resolver, so that both find it the same way.
 *
 * First match wins:
 *
 *   1. `--stack <StackName>`: the stack's `TableName` output, read with CloudFormation
 *      DescribeStacks (AWS credentials as usual; region from `--region`, else AWS_REGION /
 *      AWS_DEFAULT_REGION, else the SDK's usual configuration);
 *   2. `--table` and/or `--endpoint`: that table (with only `--endpoint`: TABLE_NAME, else the local
 *      stack's table name) at that DynamoDB endpoint;
 *   3. the local stack, if `<--data-dir or LOCAL_DATA_DIR or .local>/endpoints.json` exists
 *      (written by `npm start`): its DynamoDB Local endpoint and table;
 *   4. TABLE_NAME, at AWS_ENDPOINT_URL_DYNAMODB when that is set, from the environment.
 *
 * Otherwise, and for `--stack` together with `--table`/`--endpoint`, a usage error.
 * `resolveServiceTable` is the pure part (test/unit/auth/service-table.test.ts);
 * `openServiceTable` adds the file, CloudFormation and DynamoDB clients.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** A mistake of the operator: the CLIs print it with their usage and exit with code 1. */
export class UsageError extends Error {}

/** The command a CLI was given; undefined, its usage printed, on `--help` or without one (exit 1). */
export function commandOf(usage: string, help: boolean, positionals: readonly string[]): string | undefined {
  const [command, ...extra] = positionals;
  if (help || !command) {
    console.log(usage);
    if (!help) process.exitCode = 1;
    return undefined;
  }
  if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}`);
  return command;
}

/** Runs a CLI's work: a usage error (its own or parseArgs') exits 1 with the usage, any other 2. */
export async function runCli(name: string, usage: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const usageError = error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    console.error(usageError ? `${(error as Error).message}\n\n${usage}` : `${name}: ${(error as Error)?.message ?? error}`);
    process.exitCode = usageError ? 1 : 2;
  }
}

/** The store options, for node:util parseArgs; spread into each CLI's options. */
export const STORE_OPTIONS = {
  stack: { type: 'string' },
  table: { type: 'string' },
  endpoint: { type: 'string' },
  region: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

/** The store paragraph of each CLI's usage. */
export const STORE_USAGE = `Store:   --stack <StackName> (its TableName output, through CloudFormation; AWS credentials and
         region as usual, or --region); --table/--endpoint; otherwise the local stack found through
         <--data-dir or LOCAL_DATA_DIR or .local>/endpoints.json (written by npm start); otherwise
         TABLE_NAME (and AWS_ENDPOINT_URL_DYNAMODB) from the environment.`;

/** Where the table is, as the options say (the environment is read by resolveServiceTable). */
export interface StoreOptions {
  stack?: string;
  table?: string;
  endpoint?: string;
  dataDir?: string;
  region?: string;
}

/** The store options out of parseArgs values (parsed with STORE_OPTIONS). */
export function storeOptionsOf(values: {
  stack?: string;
  table?: string;
  endpoint?: string;
  region?: string;
  'data-dir'?: string;
}): StoreOptions {
  const options: StoreOptions = {
    stack: values.stack,
    table: values.table,
    endpoint: values.endpoint,
    dataDir: values['data-dir'],
    region: values.region,
  };
  refuseStackWithTable(options);
  return options;
}

function refuseStackWithTable(options: StoreOptions): void {
  if (options.stack !== undefined && (options.table !== undefined || options.endpoint !== undefined)) {
    throw new UsageError('Give either --stack or --table/--endpoint, not both.');
  }
}

export type ResolvedServiceTable =
  | { kind: 'stack'; stackName: string; region?: string }
  | { kind: 'table'; tableName: string; endpoint?: string; region?: string; source: string };

/** The precedence of the module comment, without I/O: `readLocalEndpoints` gives a file's text, or undefined if it does not exist. */
export function resolveServiceTable(
  options: StoreOptions,
  env: Record<string, string | undefined>,
  readLocalEndpoints: (file: string) => string | undefined,
): ResolvedServiceTable {
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  refuseStackWithTable(options);
  if (options.stack !== undefined) return { kind: 'stack', stackName: options.stack, region };
  if (options.table !== undefined || options.endpoint !== undefined) {
    return {
      kind: 'table',
      tableName: options.table ?? env.TABLE_NAME ?? LOCAL_TABLE_NAME,
      endpoint: options.endpoint,
      region,
      source: 'the command line',
    };
  }
  const file = resolve(options.dataDir ?? env.LOCAL_DATA_DIR ?? '.local', 'endpoints.json');
  const text = readLocalEndpoints(file);
  if (text !== undefined) {
    let local: { dynamoDbEndpoint?: unknown; tableName?: unknown };
    try {
      local = JSON.parse(text);
    } catch {
      throw new UsageError(`${file} is not JSON; restart the local stack (npm start) to rewrite it.`);
    }
    if (typeof local.dynamoDbEndpoint !== 'string' || typeof local.tableName !== 'string') {
      throw new UsageError(`${file} names no dynamoDbEndpoint and tableName; restart the local stack (npm start).`);
    }
    return { kind: 'table', tableName: local.tableName, endpoint: local.dynamoDbEndpoint, region: region ?? 'local', source: file };
  }
  if (env.TABLE_NAME) {
    return { kind: 'table', tableName: env.TABLE_NAME, endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region, source: 'the environment' };
  }
  throw new UsageError(
    `No store: ${file} does not exist (is the local stack running? npm start), and neither --stack, --table nor TABLE_NAME is given.`,
  );
}

export interface ServiceTable {
  db: DynamoDBDocumentClient;
  tableName: string;
  /** For messages: `table <name> of stack <stack>`, or `table <name>[ at <endpoint>] (from <source>)`. */
  where: string;
}

/** The service's table as resolveServiceTable finds it, with a document client to reach it. */
export async function openServiceTable(
  options: StoreOptions,
  env: Record<string, string | undefined> = process.env,
): Promise<ServiceTable> {
  const resolved = resolveServiceTable(options, env, (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined));
  let tableName: string;
  let endpoint: string | undefined;
  let where: string;
  if (resolved.kind === 'stack') {
    tableName = await tableOfStack(resolved.stackName, resolved.region);
    where = `table ${tableName} of stack ${resolved.stackName}`;
  } else {
    ({ tableName, endpoint } = resolved);
    where = `table ${tableName}${endpoint ? ` at ${endpoint}` : ''} (from ${resolved.source})`;
  }
  const region = resolved.region;
  const client = new DynamoDBClient({
    ...(region ? { region } : {}),
    ...(endpoint
      ? {
          endpoint,
          region: region ?? 'local',
          // DynamoDB Local accepts any credentials; real ones win when they are set.
          ...(env.AWS_ACCESS_KEY_ID ? {} : { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
        }
      : {}),
  });
  const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return { db, tableName, where };
}

async function tableOfStack(stackName: string, region: string | undefined): Promise<string> {
  const cloudFormation = new CloudFormationClient(region ? { region } : {});
  const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  const tableName = Stacks?.[0]?.Outputs?.find((output) => output.OutputKey === 'TableName')?.OutputValue;
  if (!tableName) throw new UsageError(`Stack ${stackName} has no TableName output: is it a Generic Resource Service stack?`);
  return tableName;
}

/** The local stack's table name (local/stack.ts), when only an endpoint is given. */
const LOCAL_TABLE_NAME = 'generic-resource-service';
