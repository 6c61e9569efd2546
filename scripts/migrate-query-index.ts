/**
 * `npm run migrate-query-index -- [--project <p>] [--stack <StackName> | --table/--endpoint | --data-dir]`: the
 * one-off migration for a stack that holds resources from before ordered ids and project counters
 * (docs/design.md, "Index design"). For every project it counts the resource items, compares with
 * the counter shards, and — when some resources were never counted or have ids that do not follow
 * creation time — writes `STATS#legacy` with the uncounted number and `unorderedIds`, so totals are
 * exact and `createdAt` queries use the exact evaluator for that project. Run it once, right after
 * deploying, in a quiet moment (writes during the count can make it off by those writes).
 */
import { parseArgs } from 'node:util';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { isCreationOrdered } from '../shared/domain/resource-id';
import { allItemsOf } from '../shared/store/dynamodb/operations';
import { projectPartition } from '../shared/store/dynamodb/keys';
import { DynamoDbResourceQueryStore } from '../shared/store/dynamodb/resource-query-store';
import { STORE_OPTIONS, STORE_USAGE, openServiceTable, storeOptionsOf } from './service-table';

const { values } = parseArgs({ options: { ...STORE_OPTIONS, project: { type: 'string' }, help: { type: 'boolean' } } });
if (values.help) {
  console.log(`Usage: npm run migrate-query-index -- [--project <p>] [store options]\n${STORE_USAGE}`);
  process.exit(0);
}
const table = await openServiceTable(storeOptionsOf(values));
// One project: its partition. Every project: the whole table (a one-off, so a Scan is fine).
const wanted = {
  FilterExpression: '#type IN (:resource, :stats)',
  ExpressionAttributeNames: { '#type': 'type', '#id': 'id' },
  ExpressionAttributeValues: { ':resource': 'resource', ':stats': 'stats' },
  ProjectionExpression: 'pk, sk, #type, #id, createdAt, resources',
};
const items = await allItemsOf((ExclusiveStartKey) =>
  table.db.send(
    values.project
      ? new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk',
          ...wanted,
          ExpressionAttributeValues: { ...wanted.ExpressionAttributeValues, ':pk': projectPartition(values.project) },
          ConsistentRead: true,
          ExclusiveStartKey,
        })
      : new ScanCommand({ TableName: table.tableName, ...wanted, ExclusiveStartKey }),
  ),
);
const projects = new Map<string, { resources: number; counted: number; unordered: boolean; marked: boolean }>();
for (const item of items) {
  const project = String(item.pk).slice('PROJECT#'.length);
  const entry = projects.get(project) ?? { resources: 0, counted: 0, unordered: false, marked: false };
  if (item.type === 'resource') {
    entry.resources++;
    if (!isCreationOrdered(String(item.id), String(item.createdAt))) entry.unordered = true;
  } else {
    entry.counted += Number(item.resources ?? 0);
    if (String(item.sk).endsWith('legacy')) entry.marked = true;
  }
  projects.set(project, entry);
}
const store = new DynamoDbResourceQueryStore(table.db, table.tableName);
for (const [project, entry] of projects) {
  if (entry.marked || (entry.resources === entry.counted && !entry.unordered)) continue;
  await store.markLegacy(project, entry.resources - entry.counted, entry.unordered);
  console.log(`${project}: ${entry.resources} resources, ${entry.resources - entry.counted} uncounted, ids in creation order: ${!entry.unordered}`);
}
console.log(`migrated ${table.where}`);
