/**
 * `npm run extension -- <command>`: binds a project's extension actions to their handlers (bind,
 * unbind, list: USAGE below). The table is found as scripts/service-table.ts tells, as for
 * `npm run client` (docs/extensions.md).
 *
 * `bind` of a URL or Lambda target prints the signing secret once; it is not shown again.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { EXTENSION_ACTIONS, isExtensionAction, type ExtensionAction } from '../shared/domain/extensions/actions';
import { describeTarget, ExtensionBinding, newLambdaBindingProblem, type ExtensionTarget } from '../shared/domain/extensions/binding';
import { DEFAULT_BINDINGS } from '../shared/domain/extensions/default-bindings';
import { generateSecret } from '../shared/domain/extensions/signing';
import { classifyAddress, unbracket } from '../shared/services/extension-forwarding/address-policy';
import { DynamoDbExtensionStore } from '../shared/store/dynamodb/extension-store';
import { STORE_OPTIONS, STORE_USAGE, UsageError, commandOf, openServiceTable, runCli, storeOptionsOf, type StoreOptions } from './service-table';

const USAGE = `Usage:
  npm run extension -- bind   --project <p> --action <action> --url <https URL>          [--json]
  npm run extension -- bind   --project <p> --action <action> --lambda <gr-extension-… name[:<version or alias>]> [--json]
  npm run extension -- bind   --project <p> --action <action> --static <file.json> [--status <code>] [--json]
  npm run extension -- unbind --project <p> --action <action>
  npm run extension -- list   [--project <p>] [--json]

Actions: ${EXTENSION_ACTIONS.join(', ')}
${STORE_USAGE}`;

const OPTIONS = {
  project: { type: 'string' },
  action: { type: 'string' },
  url: { type: 'string' },
  lambda: { type: 'string' },
  static: { type: 'string' },
  status: { type: 'string' },
  json: { type: 'boolean', default: false },
  ...STORE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = commandOf(USAGE, values.help, positionals);
  if (!command) return;
  const store = storeOptionsOf(values);
  switch (command) {
    case 'bind':
      return bind(values, store);
    case 'unbind':
      return unbind(values, store);
    case 'list':
      return list(values, store);
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}

async function bind(options: Options, storeOptions: StoreOptions): Promise<void> {
  const projectKey = projectOf(options);
  const action = actionOf(options);
  const kinds = [options.url, options.lambda, options.static].filter((value) => value !== undefined);
  if (kinds.length !== 1) throw new UsageError('Give exactly one of --url, --lambda or --static.');
  if (options.status !== undefined && options.static === undefined) throw new UsageError('--status applies to --static only.');

  let target: ExtensionTarget;
  let secret: string | undefined;
  if (options.url !== undefined) {
    checkUrl(options.url);
    secret = generateSecret();
    target = { kind: 'http', url: options.url, secret };
  } else if (options.lambda !== undefined) {
    const problem = newLambdaBindingProblem(options.lambda);
    if (problem) throw new UsageError(`Invalid binding: ${problem}.`);
    secret = generateSecret();
    target = { kind: 'lambda', functionName: options.lambda, secret };
  } else {
    const file = resolve(options.static!);
    let document: unknown;
    try {
      document = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`Cannot read a JSON document from ${file}: ${(error as Error).message}`);
    }
    const statusCode = options.status === undefined ? 200 : Number(options.status);
    target = { kind: 'static', statusCode, document: document as never };
  }

  const parsed = ExtensionBinding.safeParse({ projectKey, action, target, createdAt: new Date().toISOString() });
  if (!parsed.success) throw new UsageError(`Invalid binding:\n${z.prettifyError(parsed.error)}`);
  const { store } = await openServiceTable(storeOptions, DynamoDbExtensionStore);
  await store.put(parsed.data);

  if (options.json) {
    console.log(JSON.stringify({ ...view(parsed.data), ...(secret ? { secret } : {}) }, null, 2));
    return;
  }
  console.log(`Bound ${action} of project ${projectKey} to ${describeTarget(parsed.data.target)}.`);
  if (secret) {
    console.log(`\nSigning secret (shown once; give it to the handler to verify X-Extension-Signature):\n\n  ${secret}\n`);
  }
}

async function unbind(options: Options, storeOptions: StoreOptions): Promise<void> {
  const projectKey = projectOf(options);
  const action = actionOf(options);
  const { store } = await openServiceTable(storeOptions, DynamoDbExtensionStore);
  const removed = await store.delete(projectKey, action);
  const fallback = DEFAULT_BINDINGS[action];
  if (options.json) {
    console.log(JSON.stringify({ projectKey, action, removed }));
    return;
  }
  console.log(removed ? `Unbound ${action} of project ${projectKey}.` : `${action} of project ${projectKey} was not bound; nothing changed.`);
  if (fallback) console.log(`It answers its default again: ${describeTarget(fallback)}.`);
}

async function list(options: Options, storeOptions: StoreOptions): Promise<void> {
  const { store, where } = await openServiceTable(storeOptions, DynamoDbExtensionStore);
  const bindings = await store.list(options.project);
  if (options.json) {
    console.log(JSON.stringify(bindings.map(view), null, 2));
    return;
  }
  console.log(`Extension bindings in ${where}${options.project ? ` for project ${options.project}` : ''}:`);
  if (bindings.length === 0) console.log('  (none)');
  for (const binding of bindings) {
    console.log(`  ${binding.projectKey}  ${binding.action}  →  ${describeTarget(binding.target)}  (since ${binding.createdAt})`);
  }
  const defaults = Object.entries(DEFAULT_BINDINGS).map(([action, target]) => `  ${action}  →  ${describeTarget(target)}`);
  if (defaults.length > 0) console.log(`Defaults, for projects that did not bind the action:\n${defaults.join('\n')}`);
}

/** What list and bind show of a binding: everything but its secret. */
function view(binding: ExtensionBinding) {
  const { target } = binding;
  const shown = target.kind === 'static' ? target : { ...target, secret: undefined };
  return { projectKey: binding.projectKey, action: binding.action, target: shown, createdAt: binding.createdAt };
}

function projectOf(options: Options): string {
  if (!options.project) throw new UsageError('--project is required.');
  return options.project;
}

function actionOf(options: Options): ExtensionAction {
  if (!options.action) throw new UsageError('--action is required.');
  if (!isExtensionAction(options.action)) throw new UsageError(`Unknown action '${options.action}'; one of: ${EXTENSION_ACTIONS.join(', ')}.`);
  return options.action;
}

/** What can be told from the URL alone. The service checks again at every call, with the addresses the host resolves to then. */
function checkUrl(text: string): void {
  if (!URL.canParse(text)) throw new UsageError(`'${text}' is not an absolute URL.`);
  const url = new URL(text);
  const host = unbracket(url.hostname);
  const literal = classifyAddress(host);
  const loopback = literal === 'loopback' || host === 'localhost';
  if (url.protocol === 'http:' && !loopback) {
    throw new UsageError('Plain http is allowed only to a loopback address (127.0.0.1, localhost, [::1]) in local mode; use https.');
  }
  if (literal !== 'invalid' && literal !== 'public' && literal !== 'loopback') {
    throw new UsageError(`${host} is a ${literal} address; the service refuses to call it.`);
  }
  if (loopback) console.error('Note: a loopback address is called only in local mode (npm start); in AWS the call is refused.');
}

await runCli('extension', USAGE, () => main(process.argv.slice(2)));
