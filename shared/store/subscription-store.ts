import type { ChangeNotification } from '../domain/subscriptions/notification';
import type { StoredSubscription, Subscription } from '../domain/subscriptions/subscription';

/** A notification waiting for its subscription's destination (docs/subscriptions.md, "Delivery"). */
export interface ParkedNotification {
  subscriptionId: string;
  projectKey: string;
  sequenceNumber: string;
  notification: ChangeNotification;
  /** Failed attempts so far. */
  attempts: number;
  parkedAt: string;
  nextAttemptAt: string;
  lastError?: string;
}

/** Subscriptions, and what delivery keeps: notifications parked behind a failed one, and dead letters. */
export interface SubscriptionStore {
  /** Throws DuplicateKeyError when another subscription of the project holds the key. */
  create(projectKey: string, stored: StoredSubscription): Promise<void>;
  get(projectKey: string, id: string): Promise<StoredSubscription | undefined>;
  getByKey(projectKey: string, key: string): Promise<StoredSubscription | undefined>;
  list(projectKey: string): Promise<StoredSubscription[]>;
  /** Throws VersionConflictError when the version is not the current one. */
  delete(projectKey: string, subscription: Subscription, expectedVersion: number): Promise<void>;

  hasParked(subscriptionId: string): Promise<boolean>;
  /** Parks a notification, or records another failed attempt. */
  park(parked: ParkedNotification): Promise<void>;
  /** The first parked notification of the first subscription after `afterSubscriptionId`. */
  nextParked(afterSubscriptionId?: string): Promise<ParkedNotification | undefined>;
  /** A subscription's parked notifications, oldest change first. */
  parked(subscriptionId: string): AsyncIterable<ParkedNotification>;
  unpark(parked: ParkedNotification): Promise<void>;
  /** Moves a parked notification to the project's dead letters. */
  deadLetter(parked: ParkedNotification): Promise<void>;
  deadLetters(projectKey: string): Promise<ParkedNotification[]>;
  /** Parks a dead letter again, due now, its attempts reset. */
  replay(dead: ParkedNotification, now: string): Promise<void>;
}
