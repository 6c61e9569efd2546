import * as z from 'zod/mini';
import { RESOURCE_KEY_PATTERN } from '../resource-address';

/**
 * A change subscription (commercetools' Subscription, changes only): where the project's resource
 * changes are sent. docs/subscriptions.md says what each destination receives and how.
 */

const HttpDestination = z.strictObject({ type: z.literal('HTTP'), url: z.url() });
const SqsDestination = z.strictObject({ type: z.literal('SQS'), queueUrl: z.url() });
const SnsDestination = z.strictObject({ type: z.literal('SNS'), topicArn: z.string().check(z.regex(/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w.-]+$/)) });
/** commercetools' shape: the default event bus of that account and region receives PutEvents. */
const EventBridgeDestination = z.strictObject({
  type: z.literal('EventBridge'),
  region: z.string().check(z.regex(/^[a-z]{2}(-[a-z]+)+-\d$/)),
  accountId: z.string().check(z.regex(/^\d{12}$/)),
});

export const Destination = z.discriminatedUnion('type', [HttpDestination, SqsDestination, SnsDestination, EventBridgeDestination]);
export type Destination = z.infer<typeof Destination>;

export const SubscriptionDraft = z.strictObject({
  key: z.optional(z.string().check(z.regex(RESOURCE_KEY_PATTERN))),
  destination: Destination,
  changes: z.array(z.strictObject({ resourceTypeId: z.string() })).check(z.minLength(1)),
});
export type SubscriptionDraft = z.infer<typeof SubscriptionDraft>;

export const Subscription = z.strictObject({
  id: z.string(),
  version: z.number(),
  createdAt: z.string(),
  lastModifiedAt: z.string(),
  key: z.optional(z.string()),
  destination: Destination,
  changes: z.array(z.strictObject({ resourceTypeId: z.literal('resource') })),
});
export type Subscription = z.infer<typeof Subscription>;

/** The one resource type whose changes can be subscribed to. */
export const SUBSCRIBABLE_TYPE = 'resource';
/** commercetools' own limit of subscriptions per project; every change is read against them all. */
export const MAX_SUBSCRIPTIONS_PER_PROJECT = 50;

/** A subscription as stored: the signing secret of an HTTP destination beside it (never answered after creation). */
export interface StoredSubscription {
  subscription: Subscription;
  secret: string;
}
