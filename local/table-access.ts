import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { matchesLeadingKey, TABLE_GRANTS, type TableGrant } from '../shared/store/dynamodb/table-grants';

/**
 * IAM's table rules, in local mode: DynamoDB Local checks no permissions, so a function calling the
 * table in a way its declared permissions do not grant would work on a laptop and fail in AWS
 * (AccessDeniedException). The gateway runs every function inside `asFunction`, and the table
 * client refuses, as IAM would, each call its grants do not allow — actions and partition keys
 * (`dynamodb:LeadingKeys`); attributes are not checked. Calls outside any function (seeding, the
 * tests' own reads) are not checked.
 */
const running = new AsyncLocalStorage<{ name: string; grants: readonly TableGrant[] }>();

/** Runs `work` as the function `name`, with the table grants of its permissions. */
export function asFunction<T>(declaration: { name: string; permissions: readonly string[] }, work: () => T): T {
  return running.run({ name: declaration.name, grants: declaration.permissions.flatMap((permission) => TABLE_GRANTS[permission] ?? []) }, work);
}

/** Runs `work` as no function (unchecked), even from within one: a test's own writes in the middle of a request. */
export function outsideFunctions<T>(work: () => T): T {
  return running.exit(work);
}

/** Makes the client refuse what the running function's grants do not allow. */
export function enforceTableGrants(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const fn = running.getStore();
      if (fn) {
        for (const { action, partitionKey } of accessesOf(String(context.commandName), args.input as Input)) {
          const allowed = fn.grants.some((grant) => grant.actions.includes(action) && partitionKey !== undefined && matchesLeadingKey(grant.leadingKey, partitionKey));
          if (!allowed) {
            throw Object.assign(
              new Error(`User: local/${fn.name} is not authorized to perform: ${action} on an item of partition ${partitionKey ?? '(none)'} because no identity-based policy allows it`),
              { name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 } },
            );
          }
        }
      }
      return next(args);
    },
    // Once per client, however many gateways a process makes (the tests make several).
    { step: 'initialize', name: 'localTableGrants', priority: 'high', override: true },
  );
}

type Input = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the commands' inputs, read by shape

/** The IAM actions a command needs, each with the partition key it touches (a transaction's parts are authorized one by one). */
function accessesOf(command: string, input: Input): { action: string; partitionKey: string | undefined }[] {
  const name = command.replace(/Command$/, '');
  const action = (verb: string) => `dynamodb:${verb}`;
  switch (name) {
    case 'Get':
    case 'GetItem':
    case 'Delete':
    case 'DeleteItem':
    case 'Update':
    case 'UpdateItem':
      return [{ action: action(itemAction(name)), partitionKey: pkOf(input.Key) }];
    case 'Put':
    case 'PutItem':
      return [{ action: action('PutItem'), partitionKey: pkOf(input.Item) }];
    case 'Query':
      return [{ action: action('Query'), partitionKey: queriedPartition(input) }];
    case 'BatchGet':
    case 'BatchGetItem':
      return Object.values<Input>(input.RequestItems ?? {}).flatMap((request) => (request.Keys ?? []).map((key: Input) => ({ action: action('BatchGetItem'), partitionKey: pkOf(key) })));
    case 'BatchWrite':
    case 'BatchWriteItem':
      return Object.values<Input[]>(input.RequestItems ?? {}).flatMap((requests) =>
        requests.map((request) => ({ action: action('BatchWriteItem'), partitionKey: pkOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key) })),
      );
    case 'TransactWrite':
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((part: Input) => {
        if (part.Put) return { action: action('PutItem'), partitionKey: pkOf(part.Put.Item) };
        if (part.Update) return { action: action('UpdateItem'), partitionKey: pkOf(part.Update.Key) };
        if (part.Delete) return { action: action('DeleteItem'), partitionKey: pkOf(part.Delete.Key) };
        return { action: action('ConditionCheckItem'), partitionKey: pkOf(part.ConditionCheck?.Key) };
      });
    case 'TransactGet':
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((part: Input) => ({ action: action('GetItem'), partitionKey: pkOf(part.Get?.Key) }));
    default:
      // Scan, and anything else a function has no grant for: no partition key to hold it to.
      return [{ action: action(name), partitionKey: undefined }];
  }
}

const itemAction = (name: string) => (name.endsWith('Item') ? name : `${name}Item`);

/** The partition key of a key or item, in the document client's native form or the low-level `{ S: … }`. */
function pkOf(keyOrItem: Input | undefined): string | undefined {
  const value = keyOrItem?.pk;
  return typeof value === 'string' ? value : typeof value?.S === 'string' ? value.S : undefined;
}

/** The partition a Query reads: the value its key condition sets `pk` to. */
function queriedPartition(input: Input): string | undefined {
  const placeholder = /(?:^|\s|\()pk\s*=\s*(:\w+)/.exec(String(input.KeyConditionExpression ?? ''))?.[1];
  return placeholder === undefined ? undefined : pkOf({ pk: input.ExpressionAttributeValues?.[placeholder] });
}
