import { InvalidInputError, InvalidOperationError, ResourceNotFoundError } from '../domain/errors';
import { ObjectTestType, ObjectTestTypeDraft, ResourceKey, type Resource } from '../domain/resource';
import { isUpdateActionName, netChanges, UpdateRequest, updateActionSchemas, type UpdateAction } from '../domain/update-actions';
import { validate } from '../domain/validation';
import type { ResourceStore } from '../store/resource-store';

/**
 * The resource use cases, between the thin handlers and the store: validate what came in,
 * decide what to write, and let the store's conditions settle races.
 */
export class ResourceService {
  constructor(private readonly store: ResourceStore) {}

  /** Rows 6 and 8: create, or overwrite the resource that holds the draft's key. */
  async createOrOverwrite(projectKey: string, body: unknown): Promise<{ resource: Resource; created: boolean }> {
    const draft = validate(ObjectTestTypeDraft, body);
    if (draft.key === undefined) {
      if (draft.version !== undefined) throw new InvalidOperationError('A draft version applies only to a draft with a key.');
      return { resource: await this.store.create(projectKey, draft), created: true };
    }
    return this.store.writeByKey(
      projectKey,
      { key: draft.key, objectTypeProperty: draft.objectTypeProperty, expectedVersion: draft.version },
      { createIfMissing: true },
    );
  }

  /** Row 7: overwrite the resource that holds the draft's key. */
  async overwrite(projectKey: string, body: unknown): Promise<Resource> {
    const draft = validate(ObjectTestTypeDraft, body);
    if (draft.key === undefined) throw new InvalidInputError('The draft must name the resource to overwrite by its key.');
    const { resource } = await this.store.writeByKey(
      projectKey,
      { key: draft.key, objectTypeProperty: draft.objectTypeProperty, expectedVersion: draft.version },
      { createIfMissing: false },
    );
    return resource;
  }

  /** Rows 2 and 3: the path segment is an id, or `key=<key>`. */
  async read(projectKey: string, idOrKeySegment: string): Promise<Resource> {
    const key = keyOfSegment(idOrKeySegment);
    const resource =
      key === undefined ? await this.store.get(projectKey, storedId(idOrKeySegment)) : await this.store.getByKey(projectKey, key);
    if (!resource) {
      throw new ResourceNotFoundError(key === undefined ? `The resource with id '${idOrKeySegment}'` : `The resource with key '${key}'`);
    }
    return resource;
  }

  /** Row 10: actions applied in order, all or nothing, at the expected version. */
  async update(projectKey: string, id: string, body: unknown): Promise<Resource> {
    const request = validate(UpdateRequest, body);
    const actions = request.actions.map(validateAction);
    return this.store.update(projectKey, storedId(id), request.version, netChanges(actions));
  }

  /** Row 11, with an optional expected version. */
  async delete(projectKey: string, id: string, expectedVersion: number | undefined): Promise<Resource> {
    return this.store.delete(projectKey, storedId(id), expectedVersion);
  }
}

function validateAction(action: unknown, index: number): UpdateAction {
  const name = (action as { action?: unknown } | null)?.action;
  if (!isUpdateActionName(name)) {
    const known = Object.keys(updateActionSchemas).join(', ');
    throw new InvalidInputError(`actions[${index}]: unknown update action ${JSON.stringify(name ?? null)}; known actions are ${known}.`);
  }
  return validate(updateActionSchemas[name], action, `actions[${index}]`);
}

/**
 * Ids are UUIDs this service assigns: any other segment names no resource, and is not found without
 * asking the store (a segment over 1 KB is no valid DynamoDB key at all).
 */
function storedId(id: string): string {
  if (!ObjectTestType.shape.id.safeParse(id).success) throw new ResourceNotFoundError(`The resource with id '${id}'`);
  return id;
}

/** `key=<key>` names a resource by key; the key must be well-formed, else no resource has it. */
function keyOfSegment(segment: string): string | undefined {
  if (!segment.startsWith('key=')) return undefined;
  const key = segment.slice('key='.length);
  if (!ResourceKey.safeParse(key).success) throw new ResourceNotFoundError(`The resource with key '${key}'`);
  return key;
}
