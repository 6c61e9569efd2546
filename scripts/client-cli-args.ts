/**
 * Argument parsing of `npm run client` (scripts/client-cli.ts), kept free of I/O so that unit
 * tests cover every rule. The store options and where they lead are shared with
 * `npm run extension`: scripts/service-table.ts.
 */
import { parseArgs } from 'node:util';
import { isClientId } from '../shared/auth/client-secrets';
import { PROJECT_KEY_PATTERN, ScopeError, parseClientScopes } from '../shared/auth/scopes';
import { STORE_OPTIONS, STORE_USAGE, UsageError, storeOptionsOf, type StoreOptions } from './service-table';

export { UsageError };

export const USAGE = `Usage:
  npm run client -- create --scopes "<scope> ..." [--project <projectKey>] [--name <name>] [--json]
  npm run client -- list   [--project <projectKey>] [--json]
  npm run client -- revoke <clientId> [--json]
  npm run client -- unlock <clientId> [--json]
  (a client id that begins with '-', as one in 64 made before 2026-11-25 does, goes after '--':
   npm run client -- revoke -- <clientId>)

Scopes:  manage_test:<projectKey>, view_test:<projectKey>, manage_products:<projectKey>, separated
         by spaces or commas. With --project, a bare name (manage_test) means <name>:<projectKey>.
${STORE_USAGE}`;

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
  ...STORE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

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

  const store = storeOptionsOf(values);
  const json = values.json;
  const refuse = (...options: (keyof typeof OPTIONS)[]) => {
    const given = options.find((option) => values[option] !== undefined && values[option] !== false);
    if (given) throw new UsageError(`--${given} does not apply to ${command}.`);
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
      refuse('scopes', 'name');
      if (values.project !== undefined && !PROJECT_KEY_PATTERN.test(values.project)) {
        throw new UsageError(`'${values.project}' is not a project key.`);
      }
      return { command, project: values.project, json, store };
    }
    case 'revoke':
    case 'unlock': {
      refuse('scopes', 'name', 'project');
      const [clientId, ...extra] = rest;
      if (!clientId) throw new UsageError(`${command} needs the client id: npm run client -- ${command} <clientId>`);
      if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}`);
      if (!isClientId(clientId)) throw new UsageError(`'${clientId}' is not a client id.`);
      return { command, clientId, json, store };
    }
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}
