/**
 * Argument parsing and store resolution of `npm run client` (scripts/client-cli.ts), kept free of
 * I/O so that unit tests cover every rule.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_KEY_PATTERN, ScopeError, parseClientScopes } from '../shared/auth/scopes';

export class UsageError extends Error {}

export const USAGE = `Usage:
  npm run client -- create --scopes "<scope> ..." [--project <projectKey>] [--name <name>] [--json]
  npm run client -- list   [--project <projectKey>] [--json]
  npm run client -- revoke <clientId> [--json]
  npm run client -- unlock <clientId> [--json]

Scopes:  manage_test:<projectKey>, view_test:<projectKey>, manage_products:<projectKey>, separated
         by spaces or commas. With --project, a bare name (manage_test) means <name>:<projectKey>.
Store:   --stack <StackName> (its TableName output, through CloudFormation; AWS credentials and
         region as usual, or --region); --table/--endpoint; otherwise the local stack found through
         <--data-dir or LOCAL_DATA_DIR or .local>/endpoints.json (written by npm start); otherwise
         TABLE_NAME (and AWS_ENDPOINT_URL_DYNAMODB) from the environment.`;

/** Where the clients live, as the options and the environment say (resolved by resolveStore). */
export interface StoreOptions {
  stack?: string;
  table?: string;
  endpoint?: string;
  dataDir?: string;
  region?: string;
}

export type ClientCommand =
  | { command: 'help'; exitCode: 0 | 1 }
  | { command: 'create'; scopes: string[]; name: string; json: boolean; store: StoreOptions }
  | { command: 'list'; project?: string; json: boolean; store: StoreOptions }
  | { command: 'revoke' | 'unlock'; clientId: string; json: boolean; store: StoreOptions };

const OPTIONS = {
  project: { type: 'string' },
  scopes: { type: 'string' },
  name: { type: 'string' },
  json: { type: 'boolean', default: false },
  stack: { type: 'string' },
  table: { type: 'string' },
  endpoint: { type: 'string' },
  region: { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Client ids are what a client sends in HTTP Basic: keep them to characters that need no encoding. */
const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;

export function parseClientCliArgs(argv: readonly string[]): ClientCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help) return { command: 'help', exitCode: 0 };
  if (!command) return { command: 'help', exitCode: 1 };

  const store: StoreOptions = {
    stack: values.stack,
    table: values.table,
    endpoint: values.endpoint,
    dataDir: values['data-dir'],
    region: values.region,
  };
  if (store.stack !== undefined && (store.table !== undefined || store.endpoint !== undefined)) {
    throw new UsageError('Give either --stack or --table/--endpoint, not both.');
  }
  const json = values.json;
  const refuse = (option: keyof typeof OPTIONS) => {
    if (values[option] !== undefined && values[option] !== false) throw new UsageError(`--${option} does not apply to ${command}.`);
  };

  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(' ')}`);
      if (values.scopes === undefined) throw new UsageError('create needs --scopes, e.g. --scopes "manage_test view_test" --project demo.');
      let scopes: string[];
      try {
        scopes = parseClientScopes(values.scopes, values.project);
      } catch (error) {
        if (error instanceof ScopeError) throw new UsageError(error.message);
        throw error;
      }
      const name = values.name ?? (values.project ? `client of ${values.project}` : 'API client');
      if (name.trim() === '' || name.length > 256) throw new UsageError('--name must be 1 to 256 characters.');
      return { command, scopes, name, json, store };
    }
    case 'list': {
      if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(' ')}`);
      refuse('scopes');
      refuse('name');
      if (values.project !== undefined && !PROJECT_KEY_PATTERN.test(values.project)) {
        throw new UsageError(`'${values.project}' is not a project key.`);
      }
      return { command, project: values.project, json, store };
    }
    case 'revoke':
    case 'unlock': {
      refuse('scopes');
      refuse('name');
      refuse('project');
      const [clientId, ...extra] = rest;
      if (!clientId) throw new UsageError(`${command} needs the client id: npm run client -- ${command} <clientId>`);
      if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}`);
      if (!CLIENT_ID.test(clientId)) throw new UsageError(`'${clientId}' is not a client id.`);
      return { command, clientId, json, store };
    }
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}

export type ResolvedStore =
  | { kind: 'stack'; stackName: string; region?: string }
  | { kind: 'table'; tableName: string; endpoint?: string; region?: string; source: string };

/**
 * Where the clients live, first match wins: --stack; --table/--endpoint; the local stack's
 * endpoints.json (if the file exists); TABLE_NAME/AWS_ENDPOINT_URL_DYNAMODB from the environment.
 */
export function resolveStore(
  options: StoreOptions,
  env: Record<string, string | undefined>,
  readLocalEndpoints: (file: string) => string | undefined,
): ResolvedStore {
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
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

/** The local stack's table name (local/stack.ts), when only an endpoint is given. */
const LOCAL_TABLE_NAME = 'generic-resource-service';
