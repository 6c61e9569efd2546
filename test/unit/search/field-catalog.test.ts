import { describe, expect, it } from 'vitest';
import { FieldCatalog } from '../../../shared/domain/search/field-catalog';
import { resourceSchema } from './fixtures';

describe('FieldCatalog on the resource schema', () => {
  const fields = new FieldCatalog(resourceSchema);
  const kindOf = (path: string) => fields.lookup(path)?.kind;

  it.each([
    ['id', 'text'],
    ['key', 'text'],
    ['version', 'number'],
    ['createdAt', 'datetime'],
    ['lastModifiedAt', 'datetime'],
    ['someProperty', 'text'],
    ['objectTypeProperty', 'other'],
    ['objectTypeProperty.arrayOfIntExample', 'number'],
    ['objectTypeProperty.arrayOfUniqueIntExample', 'number'],
    ['objectTypeProperty.arrayOfTwonumbersExample', 'number'],
    ['objectTypeProperty.arrayOfFloatExample', 'number'],
    ['objectTypeProperty.arrayOfNumberNoDefaultsExample', 'number'],
    ['objectTypeProperty.arrayOfStringExample', 'text'],
    ['objectTypeProperty.arrayOfObjectType', 'other'],
    ['objectTypeProperty.arrayOfObjectType.integerExample', 'number'],
    ['objectTypeProperty.arrayOfObjectType.integerExampleInt32', 'number'],
  ])('knows %s as a %s field', (path, kind) => {
    expect(kindOf(path)).toBe(kind);
  });

  it('splits the path into segments', () => {
    expect(fields.lookup('objectTypeProperty.arrayOfIntExample')).toEqual({
      path: 'objectTypeProperty.arrayOfIntExample',
      segments: ['objectTypeProperty', 'arrayOfIntExample'],
      kind: 'number',
    });
  });

  it.each([
    'nope',
    'objectTypeProperty.nope',
    'key.length',
    'objectTypeProperty.arrayOfIntExample.x',
    '__proto__',
    'constructor',
    'objectTypeProperty.toString',
    'properties',
  ])('does not know %s', (path) => {
    expect(fields.lookup(path)).toBeUndefined();
  });
});

describe('FieldCatalog on other schema shapes', () => {
  it('follows local references', () => {
    const fields = new FieldCatalog({
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/$defs/Item' } } },
      $defs: { Item: { type: 'object', properties: { price: { type: 'number' }, name: { type: 'string' } } } },
    });
    expect(fields.lookup('items.price')?.kind).toBe('number');
    expect(fields.lookup('items.name')?.kind).toBe('text');
    expect(fields.lookup('items.other')).toBeUndefined();
  });

  it('looks through nullable types', () => {
    const fields = new FieldCatalog({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        count: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        nested: { anyOf: [{ type: 'object', properties: { deep: { type: 'number' } } }, { type: 'null' }] },
        either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        flag: { type: 'boolean' },
      },
    });
    expect(fields.lookup('note')?.kind).toBe('text');
    expect(fields.lookup('count')?.kind).toBe('number');
    expect(fields.lookup('nested.deep')?.kind).toBe('number');
    expect(fields.lookup('either')?.kind).toBe('other');
    expect(fields.lookup('flag')?.kind).toBe('other');
  });

  it('survives a reference cycle', () => {
    const fields = new FieldCatalog({ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' });
    expect(fields.lookup('x')).toBeUndefined();
  });
});
