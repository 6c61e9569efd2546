import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { matchesLeadingKey, PROJECT_READ_INDEXES, TABLE_GRANTS, type TableGrant } from '../shared/store/dynamodb/table-grants';

/**
 * IAM's table rules, in local mode: DynamoDB Local checks no permissions, so a function calling the
 * table in a way its declared permissions do not grant would work on a laptop and fail in AWS
 * (AccessDeniedException). The gateway runs every function inside `asFunction`, and the table
 * client refuses, as IAM would, each call its grants do not allow — actions, the resource (the
 * table, or an index: only grants that include the deployment's read indexes reach those),
 * partition keys (`dynamodb:LeadingKeys`) and, for a grant limited to some attributes, the
 * attributes the call names (`dynamodb:Attributes`) and its `ReturnValues` (NONE only). Calls
 * outside any function (seeding, the tests' own reads) are not checked.
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
        for (const { action, partitionKey, request } of accessesOf(String(context.commandName), args.input as Input)) {
          const index = typeof request.IndexName === 'string' ? request.IndexName : undefined;
          const allowed = fn.grants.some(
            (grant) =>
              grant.actions.includes(action) &&
              (index === undefined || (grant.withReadIndexes === true && PROJECT_READ_INDEXES.includes(index))) &&
              partitionKey !== undefined &&
              matchesLeadingKey(grant.leadingKey, partitionKey) &&
              (!grant.attributes || withinAttributes(grant.attributes, request)),
          );
          if (!allowed) {
            throw Object.assign(
              new Error(`User: local/${fn.name} is not authorized to perform: ${action} on ${index === undefined ? 'the table' : `the index ${index}`}, an item of partition ${partitionKey ?? '(none)'}, because no identity-based policy allows it`),
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
function accessesOf(command: string, input: Input): Access[] {
  const name = command.replace(/Command$/, '');
  const action = (operation: string) => `dynamodb:${operation}`;
  // The document client's commands drop the low-level ones' `Item`/`Items`: `Get` is `GetItem`.
  const verb = name.replace(/Items?$/, '');
  switch (verb) {
    case 'Get':
    case 'Delete':
    case 'Update':
      return [{ action: action(`${verb}Item`), partitionKey: pkOf(input.Key), request: input }];
    case 'Put':
      return [{ action: action('PutItem'), partitionKey: pkOf(input.Item), request: input }];
    case 'Query':
      return [{ action: action('Query'), partitionKey: queriedPartition(input), request: input }];
    case 'BatchGet':
      return Object.values<Input>(input.RequestItems ?? {}).flatMap((request) =>
        (request.Keys ?? []).map((key: Input) => ({ action: action('BatchGetItem'), partitionKey: pkOf(key), request: { ...request, Key: key } })),
      );
    case 'BatchWrite':
      return Object.values<Input[]>(input.RequestItems ?? {}).flatMap((requests) =>
        requests.map((request) => ({
          action: action('BatchWriteItem'),
          partitionKey: pkOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key),
          request: request.PutRequest ?? request.DeleteRequest ?? {},
        })),
      );
    case 'TransactWrite':
      return (input.TransactItems ?? []).map((part: Input) => {
        if (part.Put) return { action: action('PutItem'), partitionKey: pkOf(part.Put.Item), request: part.Put };
        if (part.Update) return { action: action('UpdateItem'), partitionKey: pkOf(part.Update.Key), request: part.Update };
        if (part.Delete) return { action: action('DeleteItem'), partitionKey: pkOf(part.Delete.Key), request: part.Delete };
        return { action: action('ConditionCheckItem'), partitionKey: pkOf(part.ConditionCheck?.Key), request: part.ConditionCheck ?? {} };
      });
    case 'TransactGet':
      return (input.TransactItems ?? []).map((part: Input) => ({ action: action('GetItem'), partitionKey: pkOf(part.Get?.Key), request: part.Get ?? {} }));
    default:
      // Scan, and anything else a function has no grant for: no partition key to hold it to.
      return [{ action: action(name), partitionKey: undefined, request: input }];
  }
}

interface Access {
  action: string;
  partitionKey: string | undefined;
  /** The request, or the part of a batch or transaction, that the action is for. */
  request: Input;
}

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

/**
 * IAM's `ForAllValues:StringEquals` on `dynamodb:Attributes` with `StringEqualsIfExists` on
 * `dynamodb:ReturnValues` NONE: every attribute the request names — of its key or item, in its
 * expressions, literally or by `#name` — is one of `allowed`, and it asks for no values back.
 */
function withinAttributes(allowed: readonly string[], request: Input): boolean {
  if (request.ReturnValues !== undefined && request.ReturnValues !== 'NONE') return false;
  return [...attributesNamed(request)].every((attribute) => allowed.includes(attribute));
}

const EXPRESSION_WORDS = new Set(
  ['SET', 'ADD', 'REMOVE', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']
    .concat(['attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append'])
    .map((word) => word.toUpperCase()),
);

/** The top-level attributes a request names (a nested path counts by its first name). */
function attributesNamed(request: Input): Set<string> {
  const names = new Set<string>([...Object.keys(request.Key ?? {}), ...Object.keys(request.Item ?? {})]);
  const aliases: Record<string, string> = request.ExpressionAttributeNames ?? {};
  for (const field of ['UpdateExpression', 'ConditionExpression', 'ProjectionExpression', 'FilterExpression', 'KeyConditionExpression']) {
    const expression = request[field];
    if (typeof expression !== 'string') continue;
    // Names not after a '.' (a nested path's later names) nor a ':' (a value placeholder).
    for (const [token] of expression.matchAll(/(?<![.\w:#])#?[A-Za-z_][\w]*/g)) {
      if (token.startsWith('#')) names.add(aliases[token] ?? token);
      else if (!EXPRESSION_WORDS.has(token.toUpperCase())) names.add(token);
    }
  }
  return names;
}
