import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasShape, SHAPE_KEYWORDS } from '../../../shared/domain/json-shape';
import { InterfaceObjectTestType } from '../../../shared/domain/resource';
import { shapeText } from '../../../shared/http/contract/derive-shape';
import { INTERFACE_OBJECT_TEST_TYPE, SHAPED_SCHEMAS, shapeFile } from '../../../shared/http/contract/parameter-shapes';

const root = join(import.meta.dirname, '../../..');
const committedShape = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as object;

/** Every keyword a JSON Schema uses, at any depth (property names are not keywords). */
function keywordsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywordsOf(item, found);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [keyword, value] of Object.entries(schema)) {
      found.add(keyword);
      if (keyword === 'properties') for (const property of Object.values(value as object)) keywordsOf(property, found);
      else keywordsOf(value, found);
    }
  }
  return found;
}

describe('the JSON Schemas `json` query parameters are checked with', () => {
  it('are committed under shared/http/contract/shapes, up to date (run `npm run openapi` after changing the schema)', () => {
    for (const { name, shape } of SHAPED_SCHEMAS) {
      const committed = readFileSync(join(root, shapeFile(name)), 'utf8');
      expect(committed === shapeText(name), `${shapeFile(name)} is stale: run \`npm run openapi\``).toBe(true);
      expect(shape, `${name} checks with the file of its own name`).toEqual(JSON.parse(committed));
    }
  });

  it('use only keywords the check understands (a new one would refuse every value)', () => {
    for (const { name } of SHAPED_SCHEMAS) {
      expect([...keywordsOf(committedShape(shapeFile(name)))].filter((keyword) => !SHAPE_KEYWORDS.has(keyword))).toEqual([]);
    }
  });
});

describe('row 1\'s unionParameter, shaped like the interface\'s ObjectTestType', () => {
  const accepts = (value: unknown) => INTERFACE_OBJECT_TEST_TYPE.accepts(value);
  /** zod's verdict without the refinements JSON Schema cannot state (unique values, DynamoDB's number range). */
  const zodShapeVerdict = (value: unknown) => {
    const result = InterfaceObjectTestType.safeParse(value);
    return result.success || result.error.issues.every((issue) => issue.code === 'custom');
  };

  // Values near the shape: mostly right, each part sometimes of another type, length or bound.
  const element = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null), fc.constant({}));
  const nearly = <T>(right: fc.Arbitrary<T>) => fc.oneof({ arbitrary: right, weight: 30 }, { arbitrary: element, weight: 1 });
  const integer = fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 3 }), weight: 20 },
    { arbitrary: fc.constantFrom(-1, 64_650, 64_651, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 0.5), weight: 1 },
  );
  const number = fc.oneof(integer, fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.constantFrom(1e-200, 1e200));
  /** Mostly of the length the field takes, sometimes of any length up to 3. */
  const arrayOf = <T>(item: fc.Arbitrary<T>, length: { minLength?: number; maxLength?: number } = {}) =>
    nearly(
      fc.oneof(
        { arbitrary: fc.array(nearly(item), { minLength: length.minLength ?? 0, maxLength: length.maxLength ?? 3 }), weight: 8 },
        { arbitrary: fc.array(nearly(item), { maxLength: 3 }), weight: 1 },
      ),
    );
  /** Sometimes one field more than the schema knows. */
  const withUnknownField = <T extends object>(record: fc.Arbitrary<T>) =>
    fc.tuple(record, fc.boolean(), fc.constantFrom('unknownField', 'id', '__proto__')).map(([fields, extra, name]) =>
      extra && JSON.stringify(fields).length % 5 === 0 ? { ...fields, [name]: 1 } : fields,
    );
  const objectElement = withUnknownField(fc.record({ integerExample: nearly(integer), integerExampleInt32: nearly(integer) }, { requiredKeys: [] }));
  const arrayTestType = withUnknownField(
    fc.record(
      {
        arrayOfIntExample: arrayOf(integer, { minLength: 1 }),
        arrayOfUniqueIntExample: arrayOf(integer, { minLength: 1 }),
        arrayOfTwonumbersExample: arrayOf(number, { minLength: 2, maxLength: 2 }),
        arrayOfFloatExample: arrayOf(number, { minLength: 1, maxLength: 1 }),
        arrayOfNumberNoDefaultsExample: arrayOf(number),
        arrayOfStringExample: arrayOf(fc.oneof(fc.string({ maxLength: 3 }), fc.constant('x'.repeat(4097)))),
        arrayOfObjectType: arrayOf(objectElement),
      },
      { requiredKeys: [] },
    ),
  );
  const value = nearly(
    withUnknownField(
      fc.record({ version: nearly(number), objectTypeProperty: nearly(arrayTestType) }, { requiredKeys: [] }).filter(
        (fields) => 'objectTypeProperty' in fields || JSON.stringify(fields).length % 8 === 0, // the required field mostly there
      ),
    ),
  );

  it('accepts what the zod schema accepts, and refuses what it refuses for its shape', () => {
    fc.assert(
      fc.property(value, (candidate) => {
        const json = JSON.parse(JSON.stringify(candidate)) as unknown; // a parsed parameter: no undefined, no -0
        expect(accepts(json), JSON.stringify(json)).toBe(zodShapeVerdict(json));
      }),
      { numRuns: 5_000 },
    );
    // The values are near enough to the shape that both verdicts come up often.
    const verdicts = fc.sample(value, 2_000).map((candidate) => accepts(JSON.parse(JSON.stringify(candidate))));
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(150);
    expect(verdicts.filter((verdict) => !verdict).length).toBeGreaterThan(200);
  });

  it('examples: types, required fields, unknown fields, lengths and bounds refused; the refinements are not its question', () => {
    expect(accepts({ objectTypeProperty: {} })).toBe(true);
    expect(accepts({ version: 3, objectTypeProperty: { arrayOfObjectType: [{ integerExample: 64650 }] } })).toBe(true);
    expect(accepts({ version: 3 })).toBe(false);
    expect(accepts({ objectTypeProperty: { nope: 1 } })).toBe(false);
    expect(accepts({ objectTypeProperty: {}, id: 'x' })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfFloatExample: [1, 2] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfIntExample: [1.5] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfObjectType: [{ integerExample: 64651 }] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfStringExample: ['x'.repeat(4097)] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfObjectType: [{}] } })).toBe(false);
    expect(accepts(JSON.parse('{"objectTypeProperty":{},"__proto__":{}}'))).toBe(false);
    // Shaped right, refused by the refinements of a stored resource: a query parameter does not ask that.
    expect(accepts({ objectTypeProperty: { arrayOfUniqueIntExample: [1, 1] } })).toBe(true);
    expect(InterfaceObjectTestType.safeParse({ objectTypeProperty: { arrayOfUniqueIntExample: [1, 1] } }).success).toBe(false);
  });

  it('refuses every value under a keyword it does not understand (fails closed)', () => {
    expect(hasShape({ type: 'object', anyOf: [{ type: 'object' }] }, {})).toBe(false);
    expect(hasShape({ type: 'array', items: { type: 'string', format: 'email' } }, [])).toBe(true); // no item to check
    expect(hasShape({ type: 'array', items: { type: 'string', format: 'email' } }, ['a@b.c'])).toBe(false);
  });
});
