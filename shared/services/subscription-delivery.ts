import { signatureHeader } from '../domain/extensions/signing';
import type { ResourceChange } from '../domain/resource-change';
import { notificationId, notificationOf, type ChangeNotification } from '../domain/subscriptions/notification';
import type { Destination, StoredSubscription, Subscription } from '../domain/subscriptions/subscription';
import { logger } from '../observability/logger';
import type { ParkedNotification, SubscriptionStore } from '../store/subscription-store';
import { sendHttp } from './extension-forwarding/http-forwarder';
import type { Resolver } from './extension-forwarding/target-policy';

/** What a destination receives: commercetools' notification, plus the id a receiver de-duplicates on. */
export type Delivery = ChangeNotification & { notificationId: string };

/** Sends to the AWS destinations (SQS, SNS, EventBridge); throws when the destination did not take it. */
export interface CloudDestinations {
  send(destination: Exclude<Destination, { type: 'HTTP' }>, delivery: Delivery): Promise<void>;
}

export interface RetryPolicy {
  /** The wait after the first failed attempt; it doubles after each, up to an hour. */
  firstDelayMs: number;
  /** How long a notification is retried, from when it was parked, before it becomes a dead letter. */
  giveUpAfterMs: number;
}

/** Header of the signature of a webhook delivery (the extension calls' scheme: docs/extensions.md). */
export const DELIVERY_SIGNATURE_HEADER = 'x-subscription-signature';
/** The log lines the stack's metric filters count (infra/constructs/monitoring.ts). */
export const DELIVERY_FAILED_MESSAGE = 'notification delivery failed';
export const DEAD_LETTER_MESSAGE = 'notification dead-lettered';
const HTTP_TIMEOUT_MS = 5_000;
const MAX_DELAY_MS = 3_600_000;

/**
 * Delivers the table's changes to the subscriptions of their project, at least once and in order
 * per subscription (so per resource): a notification that fails is parked, and every later one of
 * that subscription parks behind it until the retrier has delivered the queue (docs/subscriptions.md).
 */
export class SubscriptionDelivery {
  /** Told of each notification a destination took (local mode prints them). */
  onDelivered?: (subscription: Subscription, delivery: Delivery) => void;

  constructor(
    private readonly store: SubscriptionStore,
    private readonly cloud: CloudDestinations,
    private readonly options: { localMode: boolean; retry: RetryPolicy; resolve?: Resolver },
  ) {}

  /** The stream's changes, in their order. Answers the sequence number of the first change not handled (the store failed): it and every later one are to be given again. */
  async deliverChanges(changes: readonly ResourceChange[]): Promise<string | undefined> {
    const subscriptionsOf = new Map<string, Promise<StoredSubscription[]>>();
    const queued = new Map<string, Promise<boolean>>();
    for (const change of changes) {
      const notification = notificationOf(change);
      if (!notification) continue;
      try {
        if (!subscriptionsOf.has(notification.projectKey)) subscriptionsOf.set(notification.projectKey, this.store.list(notification.projectKey));
        const subscriptions = await subscriptionsOf.get(notification.projectKey)!;
        await Promise.all(subscriptions.map((stored) => this.deliverOrPark(stored, change.sequenceNumber, notification, queued)));
      } catch (error) {
        logger.error('change not handled: the stream gives it again', { sequenceNumber: change.sequenceNumber, error: String(error) });
        return change.sequenceNumber;
      }
    }
    return undefined;
  }

  /** Sends, or parks behind what the subscription has parked; a failure parks, and what follows queues behind it. */
  private async deliverOrPark(stored: StoredSubscription, sequenceNumber: string, notification: ChangeNotification, queued: Map<string, Promise<boolean>>) {
    const { id } = stored.subscription;
    if (!queued.has(id)) queued.set(id, this.store.hasParked(id));
    const parked: ParkedNotification = { subscriptionId: id, projectKey: notification.projectKey, sequenceNumber, notification, attempts: 0, parkedAt: now(), nextAttemptAt: now() };
    if (await queued.get(id)) return this.store.park(parked);
    const error = await this.attempt(stored, parked);
    if (error === undefined) return;
    queued.set(id, Promise.resolve(true));
    await this.store.park(this.failed(parked, error));
  }

  /** Delivers parked notifications that are due, subscription by subscription, until `deadline` (epoch ms). */
  async retryParked(deadline: number): Promise<void> {
    for (let head = await this.store.nextParked(); head && Date.now() < deadline; head = await this.store.nextParked(head.subscriptionId)) {
      const stored = await this.store.get(head.projectKey, head.subscriptionId);
      for await (const parked of this.store.parked(head.subscriptionId)) {
        // A deleted subscription's notifications go with it.
        if (!stored) {
          await this.store.unpark(parked);
          continue;
        }
        if (parked.nextAttemptAt > now() || Date.now() >= deadline) break;
        const error = await this.attempt(stored, parked);
        if (error === undefined) {
          await this.store.unpark(parked);
          continue;
        }
        const failed = this.failed(parked, error);
        if (Date.now() - Date.parse(parked.parkedAt) < this.options.retry.giveUpAfterMs) {
          await this.store.park(failed);
          break;
        }
        logger.error(DEAD_LETTER_MESSAGE, { subscriptionId: parked.subscriptionId, projectKey: parked.projectKey, sequenceNumber: parked.sequenceNumber, error });
        await this.store.deadLetter(failed);
      }
    }
  }

  private failed(parked: ParkedNotification, error: string): ParkedNotification {
    const attempts = parked.attempts + 1;
    const delay = Math.min(this.options.retry.firstDelayMs * 2 ** (attempts - 1), MAX_DELAY_MS);
    return { ...parked, attempts, lastError: error, nextAttemptAt: new Date(Date.now() + delay).toISOString() };
  }

  /** One attempt; the reason it failed, or undefined when the destination took it. */
  private async attempt({ subscription, secret }: StoredSubscription, parked: ParkedNotification): Promise<string | undefined> {
    const delivery: Delivery = { ...parked.notification, notificationId: notificationId(subscription.id, parked.sequenceNumber) };
    const { destination } = subscription;
    try {
      if (destination.type === 'HTTP') await this.post(destination.url, JSON.stringify(delivery), secret);
      else await this.cloud.send(destination, delivery);
      this.onDelivered?.(subscription, delivery);
      return undefined;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(DELIVERY_FAILED_MESSAGE, { subscriptionId: subscription.id, notificationId: delivery.notificationId, reason });
      return reason;
    }
  }

  /** A webhook: POSTed under the extension calls' SSRF policy, signed with the subscription's secret; 2xx takes it. */
  private async post(target: string, body: string, secret: string): Promise<void> {
    const url = new URL(target);
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'generic-resource-service-subscriptions/1',
      [DELIVERY_SIGNATURE_HEADER]: signatureHeader(secret, { method: 'POST', pathAndQuery: `${url.pathname}${url.search}`, body }),
    };
    const answer = await sendHttp(
      { url, method: 'POST', headers, body },
      { localMode: this.options.localMode, maxResponseBytes: 64 * 1024, resolve: this.options.resolve },
      AbortSignal.timeout(HTTP_TIMEOUT_MS),
      HTTP_TIMEOUT_MS,
    );
    if (answer.statusCode < 200 || answer.statusCode > 299) throw new Error(`the destination answered ${answer.statusCode}`);
  }
}

const now = () => new Date().toISOString();
