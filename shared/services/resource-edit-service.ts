import { InvalidInputError, InvalidOperationError, RequiredFieldError } from '../domain/errors';
import { ObjectTestTypeDraft, type Resource } from '../domain/resource';
import { isUpdateActionName, netChanges, UpdateRequest, updateActions, type UpdateAction } from '../domain/update-actions';
import { validate } from '../domain/validation';
import type { CreateOptions, ResourceStore } from '../store/resource-store';
import { storedId } from './resource-service';

/**
 * The resource use cases that take a body — create, overwrite, update — between the thin handlers
 * and the store: validate what came in, decide what to write, and let the store's conditions settle
 * races.
 */
export class ResourceEditService {
  constructor(private readonly store: ResourceStore) {}

  /** POST /{projectKey}/resource: create; a draft whose key is held overwrites that resource (a create is what is expected). */
  create(projectKey: string, body: unknown, options: CreateOptions = {}): Promise<{ resource: Resource; created: boolean }> {
    return this.createOrOverwrite(projectKey, body, { ...options, expectHeld: false });
  }

  /** PUT /{projectKey}/resource: create, or overwrite the resource that holds the draft's key (an overwrite is what is expected). */
  upsert(projectKey: string, body: unknown, options: CreateOptions = {}): Promise<{ resource: Resource; created: boolean }> {
    return this.createOrOverwrite(projectKey, body, { ...options, expectHeld: true });
  }

  /** PATCH /{projectKey}/resource: overwrite the resource that holds the draft's key. */
  async overwrite(projectKey: string, body: unknown): Promise<Resource> {
    const draft = validate(ObjectTestTypeDraft, body);
    if (draft.key === undefined) throw new RequiredFieldError('key', 'the draft must name the resource to overwrite by its key.');
    const { resource } = await this.store.writeByKey(
      projectKey,
      { key: draft.key, objectTypeProperty: draft.objectTypeProperty, expectedVersion: draft.version },
      { createIfMissing: false, expectHeld: true },
    );
    return resource;
  }

  /** POST /{projectKey}/resource/{id}: actions applied in order, all or nothing, at the expected version. */
  async update(projectKey: string, id: string, body: unknown): Promise<Resource> {
    const request = validate(UpdateRequest, body);
    const actions = request.actions.map(validateAction);
    return this.store.update(projectKey, storedId(id), request.version, netChanges(actions));
  }

  /** POST and PUT /{projectKey}/resource answer alike; what the caller expects only picks the store's cheaper first step. */
  private async createOrOverwrite(projectKey: string, body: unknown, { expectHeld, requestHash }: CreateOptions & { expectHeld: boolean }) {
    const draft = validate(ObjectTestTypeDraft, body);
    if (draft.key === undefined) {
      if (draft.version !== undefined) throw new InvalidOperationError('A draft version applies only to a draft with a key.');
      return { resource: await this.store.create(projectKey, draft, { requestHash }), created: true };
    }
    return this.store.writeByKey(
      projectKey,
      { key: draft.key, objectTypeProperty: draft.objectTypeProperty, expectedVersion: draft.version },
      { createIfMissing: true, expectHeld, requestHash },
    );
  }
}

function validateAction(action: unknown, index: number): UpdateAction {
  const name = (action as { action?: unknown } | null)?.action;
  if (!isUpdateActionName(name)) {
    const known = Object.keys(updateActions).join(', ');
    throw new InvalidInputError(`actions[${index}]: unknown update action ${JSON.stringify(name ?? null)}; known actions are ${known}.`);
  }
  return validate(updateActions[name].schema, action, `actions[${index}]`);
}
