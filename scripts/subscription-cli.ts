/**
 * `npm run subscriptions -- <command>`: the notifications delivery gave up on (dead letters).
 *
 *   failed --project <p> [--subscription <id>]   lists them, oldest change first per subscription
 *   replay --project <p> [--subscription <id>]   parks them again: the retrier delivers them, in order, within a minute
 *
 * Common options: --json, and where the table is (scripts/service-table.ts, as `npm run extension`).
 */
import { parseArgs } from 'node:util';
import { DynamoDbSubscriptionStore } from '../shared/store/dynamodb/subscription-store';
import { STORE_OPTIONS, STORE_USAGE, UsageError, commandOf, openServiceTable, runCli, storeOptionsOf } from './service-table';

const USAGE = `Usage:
  npm run subscriptions -- failed --project <p> [--subscription <id>] [--json]
  npm run subscriptions -- replay --project <p> [--subscription <id>]
${STORE_USAGE}`;

const OPTIONS = {
  project: { type: 'string' },
  subscription: { type: 'string' },
  json: { type: 'boolean', default: false },
  ...STORE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const command = commandOf(USAGE, values.help, positionals);
  if (!command) return;
  if (command !== 'failed' && command !== 'replay') throw new UsageError(`Unknown command '${command}'.`);
  if (!values.project) throw new UsageError('--project is required.');
  const { store, where } = await openServiceTable(storeOptionsOf(values), DynamoDbSubscriptionStore);
  const dead = (await store.deadLetters(values.project)).filter((each) => !values.subscription || each.subscriptionId === values.subscription);

  if (command === 'replay') {
    for (const each of dead) await store.replay(each, new Date().toISOString());
    console.log(`Replayed ${dead.length} notification${dead.length === 1 ? '' : 's'} of project ${values.project} (${where}).`);
  } else if (values.json) {
    console.log(JSON.stringify(dead, null, 2));
  } else {
    if (dead.length === 0) console.log(`No failed notifications in project ${values.project} (${where}).`);
    for (const { subscriptionId, notification, attempts, parkedAt, lastError } of dead) {
      const { notificationType, resource, version } = notification;
      console.log(`${subscriptionId}  ${notificationType} ${resource.id} v${version}  parked ${parkedAt}, ${attempts} attempts: ${lastError ?? ''}`);
    }
  }
}

await runCli('subscriptions', USAGE, () => main(process.argv.slice(2)));
