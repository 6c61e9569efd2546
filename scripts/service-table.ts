/**
 * Where the operator CLIs (`npm run client`, `extension`, `subscriptions`, `search`, `smoke`) find
 * the service's DynamoDB table: the store options they share and one resolver, so that all find it
 * the same way. The precedence is the one STORE_USAGE tells the operator; `--stack` reads the stack's
 * `TableName` output (region from `--region`, else AWS_REGION / AWS_DEFAULT_REGION, else the SDK's
 * usual configuration). `resolveServiceTable` is the pure part (test/unit/auth/service-table.test.ts);
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
export async function runCli(cli: string, usage: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const usageError = error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    const { name, message, cause } = error as Error;
    const hint =
      name === 'ResourceNotFoundException' ? ' (does the table exist?)'
      : /ECONNREFUSED/.test(String(message) + String(cause)) ? ' (is the local stack running? npm start)'
      : '';
    console.error(usageError ? `${message}\n\n${usage}` : `${cli}: ${name ?? 'Error'}: ${message ?? error}${hint}`);
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
export function storeOptionsOf(values: Partial<Record<keyof typeof STORE_OPTIONS, string>>): StoreOptions {
  const options: StoreOptions = { stack: values.stack, table: values.table, endpoint: values.endpoint, dataDir: values['data-dir'], region: values.region };
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

/** The precedence STORE_USAGE tells, without I/O: `readLocalEndpoints` gives a file's text, or undefined if it does not exist. */
export function resolveServiceTable(
  options: StoreOptions,
  env: Record<string, string | undefined>,
  readLocalEndpoints: (file: string) => string | undefined,
): ResolvedServiceTable {
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  refuseStackWithTable(options);
  if (options.stack !== undefined) return { kind: 'stack', stackName: options.stack, region };
  if (options.table !== undefined || options.endpoint !== undefined) {
    return { kind: 'table', tableName: options.table ?? env.TABLE_NAME ?? LOCAL_TABLE_NAME, endpoint: options.endpoint, region, source: 'the command line' };
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

export interface ServiceTable<Store> {
  db: DynamoDBDocumentClient;
  tableName: string;
  /** The CLI's store of the table's items. */
  store: Store;
  /** For messages: `table <name> of stack <stack>`, or `table <name>[ at <endpoint>] (from <source>)`. */
  where: string;
}

/** The service's table as resolveServiceTable finds it, with a document client and a `Store` on it. */
export async function openServiceTable<Store>(
  options: StoreOptions,
  Store: new (db: DynamoDBDocumentClient, tableName: string) => Store,
): Promise<ServiceTable<Store>> {
  const env = process.env;
  const resolved = resolveServiceTable(options, env, (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined));
  const { region } = resolved;
  let tableName: string;
  let endpoint: string | undefined;
  let where: string;
  if (resolved.kind === 'stack') {
    const { TableName } = await stackOutputs(resolved.stackName, region);
    if (!TableName) throw new UsageError(`Stack ${resolved.stackName} has no TableName output: is it a Generic Resource Service stack?`);
    tableName = TableName;
    where = `table ${tableName} of stack ${resolved.stackName}`;
  } else {
    ({ tableName, endpoint } = resolved);
    where = `table ${tableName}${endpoint ? ` at ${endpoint}` : ''} (from ${resolved.source})`;
  }
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
  return { db, tableName, store: new Store(db, tableName), where };
}

/** A stack's outputs by key, through CloudFormation DescribeStacks. */
export async function stackOutputs(stackName: string, region: string | undefined): Promise<Record<string, string | undefined>> {
  const cloudFormation = new CloudFormationClient(region ? { region } : {});
  const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  return Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
}

/** The local stack's table name (local/stack.ts), when only an endpoint is given. */
const LOCAL_TABLE_NAME = 'generic-resource-service';
