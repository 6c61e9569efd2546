import { describe, expect, it } from 'vitest';
import { DomainError, ResourceNotFoundError } from '../../../shared/domain/errors.js';
import type { OutOfOrderPropertiesTestType } from '../../../shared/domain/out-of-order-properties.js';
import type { Resource } from '../../../shared/domain/resource.js';
import { toApiError } from '../../../shared/http/errors.js';
import { ComplexPathService } from '../../../shared/services/complex-path-service.js';
import type { ComplexPath, ComplexPathStore } from '../../../shared/store/complex-path-store.js';
import type { ResourceStore } from '../../../shared/store/resource-store.js';
import { exampleWith } from './fixtures.js';

const RESOURCE: Resource = {
  id: '6f2b1d8e-3c1a-4b7e-9f00-0a1b2c3d4e5f',
  key: 'alpha',
  version: 3,
  createdAt: '2024-01-01T10:00:00.000Z',
  lastModifiedAt: '2024-01-02T10:00:00.000Z',
  objectTypeProperty: { arrayOfIntExample: [1, 2], arrayOfStringExample: ['dog'] },
};

/** The two reads the service uses, over one resource; every other method is unused. */
function fakeResources(reads: string[]): ResourceStore {
  return {
    get: async (projectKey, id) => (reads.push(`id:${id}`), projectKey === 'demo' && id === RESOURCE.id ? RESOURCE : undefined),
    getByKey: async (projectKey, key) => (reads.push(`key:${key}`), projectKey === 'demo' && key === RESOURCE.key ? RESOURCE : undefined),
  } as Partial<ResourceStore> as ResourceStore;
}

class FakeDocuments implements ComplexPathStore {
  readonly items = new Map<string, OutOfOrderPropertiesTestType>();
  async put(projectKey: string, path: ComplexPath, document: OutOfOrderPropertiesTestType) {
    const at = JSON.stringify([projectKey, path.uriParameterOne, path.uriParameterTwo]);
    const replaced = this.items.has(at);
    this.items.set(at, document);
    return { replaced };
  }
}

function setup() {
  const reads: string[] = [];
  const documents = new FakeDocuments();
  return { reads, documents, service: new ComplexPathService(fakeResources(reads), documents) };
}

const PATH = { uriParameterOne: 'uri-parameter-one=first', uriParameterTwo: 'second' };
const byId = (overrides: Record<string, unknown> = {}) => exampleWith({ id: RESOURCE.id, key: undefined, version: '3', ...overrides });

async function refusedWith(action: Promise<unknown>): Promise<unknown> {
  try {
    await action;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('ComplexPathService.post', () => {
  it('answers 201 for a new path, 200 when it replaces the document there, with the objectTypeProperty', async () => {
    const { service, documents } = setup();
    expect(await service.post('demo', PATH, byId())).toEqual({ statusCode: 201, objectTypeProperty: RESOURCE.objectTypeProperty });
    expect(await service.post('demo', PATH, byId({ custom: 'again' }))).toEqual({ statusCode: 200, objectTypeProperty: RESOURCE.objectTypeProperty });
    expect([...documents.items.entries()]).toEqual([[JSON.stringify(['demo', 'first', 'second']), byId({ custom: 'again' })]]);
  });

  it('stores under the value after the prefix: other values or projects are other paths', async () => {
    const { service, documents } = setup();
    await service.post('demo', PATH, byId());
    expect((await service.post('demo', { ...PATH, uriParameterOne: 'uri-parameter-one=other' }, byId())).statusCode).toBe(201);
    expect((await service.post('demo', { ...PATH, uriParameterTwo: 'other' }, byId())).statusCode).toBe(201);
    expect(documents.items.size).toBe(3);
  });

  it('answers 203 when the body version is not the current one, still storing the document', async () => {
    const { service, documents } = setup();
    expect(await service.post('demo', PATH, byId({ version: '2' }))).toEqual({ statusCode: 203, objectTypeProperty: RESOURCE.objectTypeProperty });
    expect(documents.items.size).toBe(1);
    // 203 wins over 200 too, and the comparison is of strings: '3.0' is not '3'.
    expect((await service.post('demo', PATH, byId({ version: '3.0' }))).statusCode).toBe(203);
  });

  it('treats a body without version as matching', async () => {
    const { service } = setup();
    expect((await service.post('demo', PATH, byId({ version: undefined }))).statusCode).toBe(201);
  });

  it('looks up by id first, by key only when there is no id', async () => {
    const { service, reads } = setup();
    await service.post('demo', PATH, byId({ key: 'alpha' }));
    expect((await service.post('demo', PATH, exampleWith({ id: undefined, key: 'alpha', version: '3' }))).statusCode).toBe(200);
    expect(reads).toEqual([`id:${RESOURCE.id}`, 'key:alpha']);
  });

  it('answers ResourceNotFound and stores nothing for an unknown id or key', async () => {
    const { service, documents } = setup();
    const missingId = await refusedWith(service.post('demo', PATH, byId({ id: '00000000-0000-4000-8000-000000000000' })));
    expect(missingId).toBeInstanceOf(ResourceNotFoundError);
    expect((missingId as Error).message).toBe("The resource with id '00000000-0000-4000-8000-000000000000' was not found.");
    const missingKey = await refusedWith(service.post('demo', PATH, exampleWith({ id: undefined, key: 'beta' })));
    expect((missingKey as Error).message).toBe("The resource with key 'beta' was not found.");
    // An id named with a key of another project is not found either.
    expect(await refusedWith(service.post('other', PATH, byId()))).toBeInstanceOf(ResourceNotFoundError);
    expect(documents.items.size).toBe(0);
  });

  it('does not ask the store about ids and keys no resource can have', async () => {
    const { service, reads } = setup();
    expect(await refusedWith(service.post('demo', PATH, exampleWith({ key: undefined })))).toBeInstanceOf(ResourceNotFoundError);
    expect(await refusedWith(service.post('demo', PATH, exampleWith({ id: undefined })))).toBeInstanceOf(ResourceNotFoundError);
    const long = await refusedWith(service.post('demo', PATH, byId({ id: 'x'.repeat(5000) })));
    expect((long as Error).message.length).toBeLessThan(200);
    expect(reads).toEqual([]);
  });

  it.each([
    ['without the prefix', { uriParameterOne: 'first', uriParameterTwo: 'second' }],
    ['with an empty value', { uriParameterOne: 'uri-parameter-one=', uriParameterTwo: 'second' }],
    ['with another parameter name', { uriParameterOne: 'uri-parameter-two=first', uriParameterTwo: 'second' }],
  ])('answers 404 NotFound for a segment %s, before looking at the body', async (_, segments) => {
    const { service, documents, reads } = setup();
    const error = await refusedWith(service.post('demo', segments, { not: 'even valid' }));
    expect(error).toBeInstanceOf(DomainError);
    expect(toApiError(error).body).toMatchObject({ statusCode: 404, errors: [{ code: 'NotFound' }] });
    expect((error as Error).message).toContain('uri-parameter-one=<value>');
    expect(documents.items.size + reads.length).toBe(0);
  });

  it('answers 400 InvalidInput for a path parameter too long to be a store key', async () => {
    const { service } = setup();
    const error = await refusedWith(service.post('demo', { ...PATH, uriParameterTwo: 'é'.repeat(100) }, byId()));
    expect(toApiError(error).body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
    expect((error as Error).message).toContain('uriParameterTwo');
  });

  it('validates the body before reading or writing anything', async () => {
    const { service, documents, reads } = setup();
    const error = await refusedWith(service.post('demo', PATH, byId({ createdAt: 'not a date' })));
    expect(toApiError(error).body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidField', field: 'createdAt' }] });
    expect(documents.items.size + reads.length).toBe(0);
  });
});
