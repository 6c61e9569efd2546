import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveResourceJsonSchema, ObjectTestType, ResourceKey } from '../../../shared/domain/resource.js';
import { isResourceId, isResourceKey } from '../../../shared/domain/resource-address.js';
import { resourceJsonSchema } from '../../../shared/domain/resource-fields.js';
import { toResource } from '../../../shared/store/dynamodb/resource-items';

/**
 * The functions that read or delete by id or key check the address with plain patterns instead of
 * the schemas; these must accept exactly what the schemas accept.
 */
describe('resource addresses without the schemas', () => {
  const idSchemaAccepts = (id: string) => ObjectTestType.shape.id.safeParse(id).success;
  const hex = fc.constantFrom(...'0123456789abcdefABCDEF');
  /** UUID-shaped strings with any version and variant digit, and near misses. */
  const uuidLike = fc
    .tuple(
      fc.string({ unit: hex, minLength: 8, maxLength: 8 }),
      fc.string({ unit: hex, minLength: 4, maxLength: 4 }),
      fc.constantFrom(...'0123456789abcdefg'),
      fc.string({ unit: hex, minLength: 3, maxLength: 3 }),
      fc.constantFrom(...'0123456789abcdefABCDEFx'),
      fc.string({ unit: hex, minLength: 3, maxLength: 3 }),
      fc.string({ unit: hex, minLength: 11, maxLength: 13 }),
    )
    .map(([a, b, version, c, variant, d, e]) => `${a}-${b}-${version}${c}-${variant}${d}-${e}`);

  it('ids: the same verdict as the schema (z.uuid())', () => {
    fc.assert(fc.property(fc.oneof(fc.uuid(), uuidLike, fc.string()), (id) => isResourceId(id) === idSchemaAccepts(id)), { numRuns: 5_000 });
    for (const id of ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '', 'key=abc', `${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}\n`]) {
      expect(isResourceId(id), JSON.stringify(id)).toBe(idSchemaAccepts(id));
    }
  });

  it('keys: the same verdict as the schema', () => {
    const keyish = fc.string({ unit: fc.constantFrom(...'aZ09_-.é '), minLength: 0, maxLength: 260 });
    fc.assert(fc.property(fc.oneof(keyish, fc.string()), (key) => isResourceKey(key) === ResourceKey.safeParse(key).success), { numRuns: 5_000 });
    expect(isResourceKey('a'.repeat(256))).toBe(true);
    expect(isResourceKey('a'.repeat(257))).toBe(false);
  });
});

describe('the resource JSON Schema the query engines read', () => {
  it('is committed as resource-json-schema.json, up to date (run `npm run openapi` after changing the resource schema)', () => {
    const committed = readFileSync(new URL('../../../shared/domain/resource-json-schema.json', import.meta.url), 'utf8');
    expect(committed === `${JSON.stringify(deriveResourceJsonSchema(), null, 2)}\n`, 'resource-json-schema.json is stale: run `npm run openapi`').toBe(true);
    expect(resourceJsonSchema()).toEqual(deriveResourceJsonSchema());
  });
});

describe('the fields a read keeps of an item (toResource)', () => {
  it('are the top-level fields of the resource schema, whatever they are: none dropped, none to add by hand', () => {
    const schema = deriveResourceJsonSchema() as { properties: Record<string, unknown> };
    const item = { pk: 'PROJECT#p', sk: 'RESOURCE#x', type: 'resource', ...Object.fromEntries(Object.keys(schema.properties).map((name) => [name, `value of ${name}`])) };
    expect(Object.keys(toResource(item)).sort()).toEqual(Object.keys(schema.properties).sort());
  });
});
