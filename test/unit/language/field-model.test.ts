import { describe, expect, it } from 'vitest';
import { elementsOf, fieldModelFromJsonSchema, fieldOf, type ObjectFieldModel } from '../../../shared/domain/language';
import { resourceJsonSchema } from '../../../shared/domain/resource-fields';

const objectModel = (jsonSchema: object): ObjectFieldModel => {
  const model = fieldModelFromJsonSchema(jsonSchema);
  if (model.kind !== 'object') throw new Error(`expected an object, got ${model.kind}`);
  return model;
};

describe('fieldModelFromJsonSchema', () => {
  it('reads the resource: scalars, date-times, objects and arrays of objects', () => {
    const resource = objectModel(resourceJsonSchema());
    expect(fieldOf(resource, 'version')).toEqual({ kind: 'number' });
    expect(fieldOf(resource, 'createdAt')).toEqual({ kind: 'datetime' });
    const objectTypeProperty = fieldOf(resource, 'objectTypeProperty');
    expect(objectTypeProperty?.kind).toBe('object');
    expect(objectTypeProperty && elementsOf(objectTypeProperty).kind).toBe('object');
  });

  it('reads integer, nullable types and local references', () => {
    const model = objectModel({
      type: 'object',
      properties: {
        count: { type: 'integer' },
        either: { type: ['integer', 'number', 'null'] },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        price: { $ref: '#/$defs/Money' },
      },
      $defs: { Money: { type: 'object', properties: { centAmount: { type: 'integer' } } } },
    });
    expect(model.fields).toEqual({
      count: { kind: 'number' },
      either: { kind: 'number' },
      note: { kind: 'string' },
      price: { kind: 'object', fields: { centAmount: { kind: 'number' } } },
    });
  });

  it('keeps fields without one supported type as untyped, and leaves out what is no schema', () => {
    const model = objectModel({
      type: 'object',
      properties: {
        anything: {},
        union: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        strings: { type: 'array' },
        remote: { $ref: 'https://example.com/schema' },
        notASchema: 'string',
      },
    });
    expect(model.fields).toEqual({
      anything: { kind: 'untyped' },
      union: { kind: 'untyped' },
      strings: { kind: 'array', items: { kind: 'untyped' } },
      remote: { kind: 'untyped' },
    });
  });

  it('cuts a recursive type where it refers to itself', () => {
    const model = objectModel({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Tree' } },
      $defs: { Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
    expect(model.fields).toEqual({
      tree: { kind: 'object', fields: { children: { kind: 'array', items: { kind: 'untyped' } } } },
    });
    expect(fieldModelFromJsonSchema({ $defs: { A: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' })).toEqual({ kind: 'untyped' });
  });

  it('reads each schema object once', () => {
    const jsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(fieldModelFromJsonSchema(jsonSchema)).toBe(fieldModelFromJsonSchema(jsonSchema));
  });
});

describe('fieldOf and elementsOf', () => {
  const model = objectModel(
    JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"grid":{"type":"array","items":{"type":"array","items":{"type":"number"}}}}}') as object,
  );

  it('finds own fields only, even one called __proto__', () => {
    expect(fieldOf(model, '__proto__')).toEqual({ kind: 'string' });
    expect(fieldOf(model, 'constructor')).toBeUndefined();
    expect(fieldOf(model, 'toString')).toBeUndefined();
  });

  it('looks through arrays of arrays to the values', () => {
    const grid = fieldOf(model, 'grid');
    expect(grid && elementsOf(grid)).toEqual({ kind: 'number' });
  });
});
