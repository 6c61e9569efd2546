import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Destination } from '../domain/subscriptions/subscription';
import { unknownKind } from '../domain/unknown-kind';
import type { CloudDestinations, Delivery } from '../services/subscription-delivery';
import { requestHandler } from './request-timeouts';
import { withoutSdkLogging } from './sdk-logging';

type Client = SQSClient | SNSClient | EventBridgeClient;

/**
 * Notifications to the teams' own queues, topics and event buses, with the function's role: the
 * team opens them to it with a resource policy (README.md, "Change subscriptions"). One client per
 * service and region, made on first use. FIFO queues and topics get the resource id as message
 * group (order per resource) and the notification id as deduplication id.
 */
export class AwsDestinations implements CloudDestinations {
  private readonly clients = new Map<string, Client>();

  async send(destination: Exclude<Destination, { type: 'HTTP' }>, delivery: Delivery): Promise<void> {
    const body = JSON.stringify(delivery);
    const fifo = { MessageGroupId: delivery.resource.id, MessageDeduplicationId: delivery.notificationId };
    switch (destination.type) {
      case 'SQS': {
        const { queueUrl: QueueUrl } = destination;
        const region = /sqs\.([a-z0-9-]+)\.amazonaws/.exec(QueueUrl)?.[1];
        return void (await this.client('SQS', SQSClient, region).send(new SendMessageCommand({ QueueUrl, MessageBody: body, ...(QueueUrl.endsWith('.fifo') ? fifo : {}) })));
      }
      case 'SNS': {
        const { topicArn: TopicArn } = destination;
        return void (await this.client('SNS', SNSClient, TopicArn.split(':')[3]).send(new PublishCommand({ TopicArn, Message: body, ...(TopicArn.endsWith('.fifo') ? fifo : {}) })));
      }
      case 'EventBridge': {
        const { region, accountId } = destination;
        const partition = region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws';
        const answer = await this.client('EventBridge', EventBridgeClient, region).send(
          new PutEventsCommand({
            Entries: [
              {
                EventBusName: `arn:${partition}:events:${region}:${accountId}:event-bus/default`,
                Source: 'generic-resource-service',
                DetailType: delivery.notificationType,
                Detail: body,
                Resources: [],
              },
            ],
          }),
        );
        // PutEvents answers 200 with the entries it refused.
        if (answer.FailedEntryCount) throw new Error(`EventBridge refused the event: ${answer.Entries?.[0]?.ErrorCode} ${answer.Entries?.[0]?.ErrorMessage}`);
        return;
      }
      default:
        // Returning would count the notification as delivered.
        return unknownKind(destination, 'destination type');
    }
  }

  private client<C extends Client>(kind: string, Client: new (config: object) => C, region: string | undefined): C {
    const name = `${kind}:${region}`;
    if (!this.clients.has(name)) this.clients.set(name, withoutSdkLogging(new Client({ region, requestHandler: requestHandler() })));
    return this.clients.get(name) as C;
  }
}
