import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AwsDestinations } from '../../../shared/aws/destinations';
import type { Destination, StoredSubscription } from '../../../shared/domain/subscriptions/subscription';
import { SubscriptionDelivery, type Delivery } from '../../../shared/services/subscription-delivery';
import type { ParkedNotification, SubscriptionStore } from '../../../shared/store/subscription-store';

/** The AWS destinations, up to the SDK call (no engine here): the command each client is given. */
const delivery: Delivery = {
  notificationType: 'ResourceUpdated',
  projectKey: 'demo',
  resource: { typeId: 'resource', id: '01a21ed5-ea8f-7c10-899d-217efe4e4602' },
  version: 2,
  oldVersion: 1,
  modifiedAt: '2026-01-01T00:00:00.000Z',
  notificationId: 'sub-1-0042',
};

function capture(Client: typeof SQSClient | typeof SNSClient | typeof EventBridgeClient, answer: unknown = {}) {
  const sent: { command: unknown; region: string }[] = [];
  const prototype = Client.prototype as unknown as { send(command: unknown): Promise<unknown> };
  vi.spyOn(prototype, 'send').mockImplementation(async function (this: { config: { region: () => Promise<string> } }, command: unknown) {
    sent.push({ command, region: await this.config.region() });
    return answer;
  });
  return sent;
}

afterEach(() => vi.restoreAllMocks());

describe('AwsDestinations', () => {
  it('sends SQS messages to the queue in its region; FIFO queues group by resource and de-duplicate by notification', async () => {
    const sent = capture(SQSClient);
    const destinations = new AwsDestinations();
    await destinations.send({ type: 'SQS', queueUrl: 'https://sqs.eu-central-1.amazonaws.com/123456789012/changes' }, delivery);
    await destinations.send({ type: 'SQS', queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/changes.fifo' }, delivery);
    expect(sent.map(({ region }) => region)).toEqual(['eu-central-1', 'us-east-1']);
    const [standard, fifo] = sent.map(({ command }) => (command as SendMessageCommand).input);
    expect(sent[0]!.command).toBeInstanceOf(SendMessageCommand);
    expect(standard).toEqual({ QueueUrl: 'https://sqs.eu-central-1.amazonaws.com/123456789012/changes', MessageBody: JSON.stringify(delivery) });
    expect(fifo).toMatchObject({ MessageGroupId: delivery.resource.id, MessageDeduplicationId: delivery.notificationId });
  });

  it('publishes to the SNS topic in the region its ARN names', async () => {
    const sent = capture(SNSClient);
    await new AwsDestinations().send({ type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:123456789012:changes' }, delivery);
    expect(sent[0]!.command).toBeInstanceOf(PublishCommand);
    expect(sent[0]!.region).toBe('eu-west-1');
    expect((sent[0]!.command as PublishCommand).input).toEqual({ TopicArn: 'arn:aws:sns:eu-west-1:123456789012:changes', Message: JSON.stringify(delivery) });
  });

  it("puts events on the default bus of the team's account and region, and fails when EventBridge refuses the entry", async () => {
    const sent = capture(EventBridgeClient, { FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
    const destination = { type: 'EventBridge', region: 'eu-north-1', accountId: '210987654321' } as const;
    await new AwsDestinations().send(destination, delivery);
    expect(sent[0]!.command).toBeInstanceOf(PutEventsCommand);
    expect(sent[0]!.region).toBe('eu-north-1');
    expect((sent[0]!.command as PutEventsCommand).input.Entries).toEqual([
      {
        EventBusName: 'arn:aws:events:eu-north-1:210987654321:event-bus/default',
        Source: 'generic-resource-service',
        DetailType: 'ResourceUpdated',
        Detail: JSON.stringify(delivery),
        Resources: [],
      },
    ]);

    vi.restoreAllMocks();
    capture(EventBridgeClient, { FailedEntryCount: 1, Entries: [{ ErrorCode: 'AccessDeniedException', ErrorMessage: 'not authorized' }] });
    await expect(new AwsDestinations().send(destination, delivery)).rejects.toThrow(/AccessDeniedException/);
  });

  it('refuses a destination type it does not know, sending nothing, so the notification is not counted as delivered', async () => {
    const sent = [SQSClient, SNSClient, EventBridgeClient].flatMap((Client) => capture(Client));
    const kafka = { type: 'Kafka', brokers: 'b-1:9092' } as unknown as Exclude<Destination, { type: 'HTTP' }>;
    await expect(new AwsDestinations().send(kafka, delivery)).rejects.toThrow('Unknown destination type: "Kafka"');

    const parked: ParkedNotification[] = [];
    const subscription = { id: 'sub-1', version: 1, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-01T00:00:00.000Z', destination: kafka, changes: [{ resourceTypeId: 'resource' }] };
    const store = {
      list: async () => [{ subscription, secret: 's' } as StoredSubscription],
      hasParked: async () => false,
      park: async (notification: ParkedNotification) => void parked.push(notification),
    } as Partial<SubscriptionStore> as SubscriptionStore;
    const subscriptions = new SubscriptionDelivery(store, new AwsDestinations(), { localMode: false, retry: { firstDelayMs: 100, giveUpAfterMs: 60_000 } });
    const delivered = vi.fn();
    subscriptions.onDelivered = delivered;
    const after = { id: 'r-1', version: 1, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-01T00:00:00.000Z', objectTypeProperty: {} };
    const change = { projectKey: 'demo', id: 'r-1', version: 1, after, sequenceNumber: '42', writtenAt: '2026-01-01T00:00:00.000Z' };
    expect(await subscriptions.deliverChanges([change])).toBeUndefined();
    expect(delivered).not.toHaveBeenCalled();
    expect(parked).toEqual([expect.objectContaining({ subscriptionId: 'sub-1', sequenceNumber: '42', attempts: 1, lastError: 'Unknown destination type: "Kafka"' })]);
    expect(sent).toEqual([]);
  });
});
