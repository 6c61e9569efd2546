import { DomainError, ResourceNotFoundError } from '../domain/errors';
import type { Resource } from '../domain/resource';
import { isResourceId, isResourceKey } from '../domain/resource-address';
import type { ResourceStore } from '../store/resource-store';

/**
 * The resource use cases that take no body — read and delete, by id or key — between the thin
 * handlers and the store. Those that validate a draft or update actions are ResourceEditService's
 * (resource-edit-service.ts): the functions that read or delete carry no validation.
 */
export class ResourceService {
  constructor(private readonly store: ResourceStore) {}

  /** GET /{projectKey}/resource/{id}: the path segment is an id, or `key=<key>`. */
  async read(projectKey: string, idOrKeySegment: string): Promise<Resource> {
    const key = keyOfSegment(idOrKeySegment);
    const resource =
      key === undefined ? await this.store.get(projectKey, storedId(idOrKeySegment)) : await this.store.getByKey(projectKey, key);
    if (!resource) {
      throw new ResourceNotFoundError(key === undefined ? `The resource with id '${idOrKeySegment}'` : `The resource with key '${key}'`);
    }
    return resource;
  }

  /** DELETE /{projectKey}/resource/{id}, with an optional expected version. */
  async delete(projectKey: string, id: string, expectedVersion: number | undefined): Promise<Resource> {
    return this.store.delete(projectKey, storedId(id), expectedVersion);
  }
}

/** Ids are UUIDs this service assigns: any other segment names no resource, and is not found without asking the store (a segment over 1 KB is no valid DynamoDB key at all). */
export function storedId(id: string): string {
  if (isResourceId(id)) return id;
  // Only reads take `key=<key>` (GET /{projectKey}/resource/key={key}); a delete or an update by key would otherwise be told that no such id exists.
  if (id.startsWith('key=')) {
    throw new DomainError([
      { code: 'ResourceNotFound', message: `Updates and deletes name the resource by its id, not by '${id}': GET /{projectKey}/resource/${id} answers its id.` },
    ]);
  }
  throw new ResourceNotFoundError(`The resource with id '${id}'`);
}

/** `key=<key>` names a resource by key; the key must be well-formed, else no resource has it. */
function keyOfSegment(segment: string): string | undefined {
  if (!segment.startsWith('key=')) return undefined;
  const key = segment.slice('key='.length);
  if (!isResourceKey(key)) throw new ResourceNotFoundError(`The resource with key '${key}'`);
  return key;
}
