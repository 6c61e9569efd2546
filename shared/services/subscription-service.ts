import { randomUUID } from 'node:crypto';
import { InvalidInputError, InvalidOperationError, ResourceNotFoundError, VersionConflictError } from '../domain/errors';
import { generateSecret } from '../domain/extensions/signing';
import type { Page } from '../domain/query/page';
import type { QueryParameters } from '../domain/query-parameters';
import { MAX_OFFSET } from '../domain/limits';
import { MAX_SUBSCRIPTIONS_PER_PROJECT, SUBSCRIBABLE_TYPE, SubscriptionDraft, type StoredSubscription, type Subscription } from '../domain/subscriptions/subscription';
import { validate } from '../domain/validation';
import type { SubscriptionStore } from '../store/subscription-store';
import { ExtensionCallError } from './extension-forwarding/errors';
import { checkTarget, type Resolver } from './extension-forwarding/target-policy';

/** The subscription endpoints: create, read, list and delete a project's change subscriptions. */
export class SubscriptionService {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly options: { localMode: boolean; resolve?: Resolver },
  ) {}

  /** The new subscription; an HTTP destination's signing secret is answered here only (`signingSecret`). */
  async create(projectKey: string, body: unknown): Promise<Subscription & { signingSecret?: string }> {
    if (typeof body === 'object' && body !== null && 'messages' in body) {
      throw new InvalidInputError('Message subscriptions are not supported: subscribe to the changes of resources ("changes": [{"resourceTypeId": "resource"}]).');
    }
    const draft = validate(SubscriptionDraft, body);
    const other = draft.changes.find(({ resourceTypeId }) => resourceTypeId !== SUBSCRIBABLE_TYPE);
    if (other) throw new InvalidInputError(`Changes of '${other.resourceTypeId}' cannot be subscribed to: the only resource type is '${SUBSCRIBABLE_TYPE}'.`);
    if (draft.destination.type === 'HTTP') await this.checkUrl(draft.destination.url);
    if ((await this.store.list(projectKey)).length >= MAX_SUBSCRIPTIONS_PER_PROJECT) {
      throw new InvalidOperationError(`A project has at most ${MAX_SUBSCRIPTIONS_PER_PROJECT} subscriptions.`);
    }
    const now = new Date().toISOString();
    const subscription: Subscription = {
      id: randomUUID(),
      version: 1,
      createdAt: now,
      lastModifiedAt: now,
      ...(draft.key === undefined ? {} : { key: draft.key }),
      destination: draft.destination,
      changes: [{ resourceTypeId: SUBSCRIBABLE_TYPE }],
    };
    const secret = generateSecret();
    await this.store.create(projectKey, { subscription, secret });
    return draft.destination.type === 'HTTP' ? { ...subscription, signingSecret: secret } : subscription;
  }

  /** By id, or by key with the segment `key=<key>`. */
  async read(projectKey: string, idOrKey: string): Promise<Subscription> {
    return (await this.find(projectKey, idOrKey)).subscription;
  }

  async list(projectKey: string, query: QueryParameters): Promise<Page<Subscription>> {
    const limit = query.number('limit', { integer: true, min: 0, max: 500 }) ?? 20;
    const offset = query.number('offset', { integer: true, min: 0, max: MAX_OFFSET }) ?? 0;
    const all = (await this.store.list(projectKey)).map(({ subscription }) => subscription);
    all.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const results = all.slice(offset, offset + limit);
    return { limit, offset, count: results.length, total: all.length, results };
  }

  async delete(projectKey: string, idOrKey: string, version: number | undefined): Promise<Subscription> {
    if (version === undefined) throw new InvalidInputError("The query parameter 'version' is required.");
    const { subscription } = await this.find(projectKey, idOrKey);
    if (subscription.version !== version) throw new VersionConflictError(version, subscription.version);
    await this.store.delete(projectKey, subscription, version);
    return subscription;
  }

  private async find(projectKey: string, idOrKey: string): Promise<StoredSubscription> {
    const key = idOrKey.startsWith('key=') ? idOrKey.slice('key='.length) : undefined;
    // Ids are UUIDs: anything longer names no subscription (and would be no valid table key).
    const stored = idOrKey.length > 300 ? undefined : key === undefined ? await this.store.get(projectKey, idOrKey) : await this.store.getByKey(projectKey, key);
    if (!stored) throw new ResourceNotFoundError(key === undefined ? `The subscription with id '${idOrKey}'` : `The subscription with key '${key}'`);
    return stored;
  }

  /** The extension calls' SSRF policy, at creation too: a refused URL is a bad request, not a failing delivery later. */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkTarget(new URL(url), { localMode: this.options.localMode }, this.options.resolve);
    } catch (error) {
      if (!(error instanceof ExtensionCallError)) throw error;
      throw new InvalidInputError(`The destination URL may not be called: ${error.message.replace(/extension/g, 'destination')}`);
    }
  }
}
