/**
 * `npm run client -- <command>`: the API clients of the token service (USAGE: client-cli-args.ts).
 *
 *   create   prints the client id and, once, its secret
 *   list     never prints secrets or their hashes
 *   revoke   no new tokens; its tokens introspect inactive
 *   unlock   forgets the brute-force brake's failures (every source)
 *
 * The table is found as scripts/service-table.ts tells, as for `npm run extension` (docs/security.md).
 */
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../shared/auth/authorizer-settings';
import { generateClientId, generateSecret, hashSecret } from '../shared/auth/client-secrets';
import type { ApiClient } from '../shared/store/client-store';
import { DynamoDbClientStore } from '../shared/store/dynamodb/client-store';
import { unknownKind } from '../shared/domain/unknown-kind';
import { USAGE, parseClientCliArgs, type ClientCommand } from './client-cli-args';
import { openServiceTable, runCli } from './service-table';

/** Exit codes: 0 done, 1 usage error or no such client, 2 the store failed. */
async function main(argv: string[]): Promise<void> {
  const command = parseClientCliArgs(argv);
  switch (command.command) {
    case 'help':
      (command.exitCode === 0 ? console.log : console.error)(USAGE);
      process.exitCode = command.exitCode;
      return;
    case 'create':
      return create(command);
    case 'list':
      return list(command);
    case 'revoke':
    case 'unlock':
      return revokeOrUnlock(command);
    default:
      return unknownKind(command, 'command');
  }
}

async function create(command: Extract<ClientCommand, { command: 'create' }>): Promise<void> {
  const { store, where } = await openServiceTable(command.store, DynamoDbClientStore);
  const clientId = generateClientId();
  const secret = generateSecret();
  const client: ApiClient = { clientId, name: command.name, secretHash: await hashSecret(secret), scopes: command.scopes, createdAt: new Date().toISOString() };
  await store.put(client);
  if (command.json) {
    console.log(JSON.stringify({ clientId, clientSecret: secret, name: client.name, scopes: client.scopes, createdAt: client.createdAt }, null, 2));
    return;
  }
  console.log(`Created client '${client.name}' in ${where}.

  client_id:     ${clientId}
  client_secret: ${secret}
  scopes:        ${client.scopes.join(' ')}

The secret is shown once: only its salted hash is stored. Get a token with
  curl -u '${clientId}:${secret}' -d grant_type=client_credentials <base URL>/oauth/token`);
}

async function list(command: Extract<ClientCommand, { command: 'list' }>): Promise<void> {
  const { store, where } = await openServiceTable(command.store, DynamoDbClientStore);
  const clients = (await store.list())
    .filter((client) => !command.project || client.scopes.some((scope) => scope.endsWith(`:${command.project}`)))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  // No 'locked' status: the brute-force brake holds per source address, never for a client as a whole.
  const views = clients.map((client) => ({
    clientId: client.clientId,
    name: client.name,
    scopes: client.scopes,
    createdAt: client.createdAt,
    status: client.revokedAt ? 'revoked' : 'active',
    ...(client.revokedAt ? { revokedAt: client.revokedAt } : {}),
  }));
  if (command.json) {
    console.log(JSON.stringify(views, null, 2));
    return;
  }
  console.log(`API clients in ${where}${command.project ? ` with scopes on project ${command.project}` : ''}:`);
  if (views.length === 0) console.log('  (none)');
  for (const view of views) {
    const status = view.revokedAt ? `revoked ${view.revokedAt}` : 'active';
    console.log(`  ${view.clientId}  ${JSON.stringify(view.name)}  ${status}  created ${view.createdAt}\n      ${view.scopes.join(' ')}`);
  }
}

async function revokeOrUnlock(command: Extract<ClientCommand, { command: 'revoke' | 'unlock' }>): Promise<void> {
  const { store } = await openServiceTable(command.store, DynamoDbClientStore);
  const done =
    command.command === 'revoke'
      ? await store.revoke(command.clientId, new Date().toISOString())
      : await store.clearAttempts(command.clientId);
  if (!done) process.exitCode = 1;
  if (command.json) console.log(JSON.stringify({ clientId: command.clientId, [command.command === 'revoke' ? 'revoked' : 'unlocked']: done }));
  else if (!done) console.error(`No client '${command.clientId}'.`);
  else if (command.command === 'unlock') console.log(`Unlocked ${command.clientId}: its failed authentications from every source address are forgotten.`);
  else {
    console.log(
      `Revoked ${command.clientId}: it gets no new tokens, and its tokens introspect as inactive. Tokens it already holds ` +
        `stop opening the API within ${AUTHORIZER_CACHE_TTL_SECONDS / 60} minutes (${AUTHORIZER_CACHE_TTL_SECONDS} s), ` +
        'when the gateway\'s cached verdict for each expires: see docs/security.md.',
    );
  }
}

await runCli('client', USAGE, () => main(process.argv.slice(2)));
