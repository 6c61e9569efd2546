import { describe, expect, it } from 'vitest';
import type { ObjectFieldModel } from '../../../shared/domain/language/index.js';
import {
  ParameterError,
  compilePredicates,
  queryableFields,
  type PredicateVariables,
  resourceFields,
} from '../../../shared/domain/query/index.js';

/** The fields exactly as the service derives them. */
const schema = resourceFields();

/** Resources shaped like examples/object-test-type.json, ids in the order a < b < c < d. */
const resources = {
  a: {
    id: '10000000-0000-4000-8000-000000000000',
    key: 'alpha',
    version: 1,
    createdAt: '2024-01-01T10:00:00.000Z',
    lastModifiedAt: '2024-01-01T10:00:00.000Z',
    someProperty: 'hello',
    objectTypeProperty: {
      arrayOfIntExample: [2, 4, 2, 6, 4, 6, 2],
      arrayOfUniqueIntExample: [2, 6, 10, 14],
      arrayOfTwonumbersExample: [6, 10],
      arrayOfFloatExample: [1.64],
      arrayOfNumberNoDefaultsExample: [20, 18, 16, 14, 12],
      arrayOfStringExample: ['dogdog', 'catcat', 'birdbird'],
      arrayOfObjectType: [
        { integerExample: 1554, integerExampleInt32: 2 },
        { integerExample: 60000, integerExampleInt32: 22 },
      ],
    },
  },
  b: {
    id: '20000000-0000-4000-8000-000000000000',
    key: 'beta',
    version: 3,
    createdAt: '2024-03-15T08:30:00.000Z',
    lastModifiedAt: '2024-03-16T08:30:00.000Z',
    objectTypeProperty: {
      arrayOfIntExample: [1, 3],
      arrayOfFloatExample: [0.82],
      arrayOfNumberNoDefaultsExample: [],
      arrayOfStringExample: ['fish'],
      arrayOfObjectType: [{ integerExample: 200 }],
    },
  },
  c: {
    id: '30000000-0000-4000-8000-000000000000',
    version: 2,
    createdAt: '2023-06-30T23:59:59.999Z',
    lastModifiedAt: '2023-06-30T23:59:59.999Z',
    objectTypeProperty: {},
  },
  d: {
    id: '40000000-0000-4000-8000-000000000000',
    key: 'delta',
    version: 10,
    createdAt: '2024-03-15T08:30:00.000Z',
    lastModifiedAt: '2024-03-15T08:30:00.000Z',
    objectTypeProperty: {
      arrayOfIntExample: [7],
      arrayOfFloatExample: [-350],
      arrayOfStringExample: ['Dog', 'say "hi"'],
      arrayOfObjectType: [],
    },
  },
};

type ResourceName = keyof typeof resources;

const allResources = Object.values(resources);

/** The fixture's name of a resource, to state results briefly. */
function nameOf(resource: unknown): ResourceName {
  const entry = Object.entries(resources).find(([, candidate]) => candidate === resource);
  if (!entry) throw new Error('not a fixture resource');
  return entry[0] as ResourceName;
}

/** Names of the fixture resources that all given where parameters match. */
function matching(where: string | string[], variables: PredicateVariables = {}): string[] {
  const matches = compilePredicates(Array.isArray(where) ? where : [where], { schema, variables });
  return allResources.filter(matches).map(nameOf);
}

function compileError(where: string, variables: PredicateVariables = {}): ParameterError {
  try {
    compilePredicates([where], { schema, variables });
  } catch (error) {
    if (error instanceof ParameterError) return error;
    throw error;
  }
  throw new Error(`expected '${where}' to be rejected`);
}

describe('compilePredicates: comparisons on scalar fields', () => {
  it.each([
    ['version = 3', ['b']],
    ['version != 3', ['a', 'c', 'd']],
    ['version <> 3', ['a', 'c', 'd']],
    ['version < 3', ['a', 'c']],
    ['version <= 3', ['a', 'b', 'c']],
    ['version > 3', ['d']],
    ['version >= 3', ['b', 'd']],
    ['version = 3.0', ['b']],
    ['version > -1e3', ['a', 'b', 'c', 'd']],
  ])('%s', (where, expected) => {
    expect(matching(where)).toEqual(expected);
  });

  it('compares strings exactly and in code-unit order', () => {
    expect(matching('key = "beta"')).toEqual(['b']);
    expect(matching('key = "Beta"')).toEqual([]);
    expect(matching('key > "b"')).toEqual(['b', 'd']);
    expect(matching('key <= "beta"')).toEqual(['a', 'b']);
  });

  it('compares date-times as instants, whatever the zone or precision of the literal', () => {
    expect(matching('createdAt = "2024-03-15T08:30:00Z"')).toEqual(['b', 'd']);
    expect(matching('createdAt = "2024-03-15T10:30:00.000+02:00"')).toEqual(['b', 'd']);
    expect(matching('createdAt > "2024-01-01T10:00:00.000Z"')).toEqual(['b', 'd']);
    expect(matching('createdAt >= "2024-01-01T10:00:00.000Z"')).toEqual(['a', 'b', 'd']);
    expect(matching('createdAt < "2024-01-01T00:00:00.000Z"')).toEqual(['c']);
  });

  it('reads a date-time without a zone as UTC and a bare date as midnight UTC', () => {
    expect(matching('createdAt = "2024-01-01T10:00:00"')).toEqual(['a']);
    expect(matching('createdAt >= "2024-03-15"')).toEqual(['b', 'd']);
  });

  it('treats an absent field as matching no comparison, not even != or not in', () => {
    expect(matching('key != "alpha"')).toEqual(['b', 'd']);
    expect(matching('key not in ("alpha")')).toEqual(['b', 'd']);
    expect(matching('someProperty != "x"')).toEqual(['a']);
  });
});

describe('compilePredicates: in and not in', () => {
  it('matches scalar fields against a list', () => {
    expect(matching('key in ("alpha", "delta", "nope")')).toEqual(['a', 'd']);
    expect(matching('version not in (1, 2)')).toEqual(['b', 'd']);
    expect(matching('createdAt in ("2023-06-30T23:59:59.999Z")')).toEqual(['c']);
  });

  it('matches arrays when any element is in the list', () => {
    expect(matching('objectTypeProperty(arrayOfIntExample in (3, 7))')).toEqual(['b', 'd']);
  });
});

describe('compilePredicates: arrays of scalars', () => {
  it('matches a comparison when any element matches', () => {
    expect(matching('objectTypeProperty(arrayOfIntExample = 2)')).toEqual(['a']);
    expect(matching('objectTypeProperty(arrayOfIntExample > 5)')).toEqual(['a', 'd']);
    expect(matching('objectTypeProperty(arrayOfStringExample = "fish")')).toEqual(['b']);
  });

  it('reads the dotted path as the nested predicate', () => {
    expect(matching('objectTypeProperty.arrayOfIntExample = 2')).toEqual(matching('objectTypeProperty(arrayOfIntExample = 2)'));
  });

  it('contains a single value', () => {
    expect(matching('objectTypeProperty(arrayOfIntExample contains 6)')).toEqual(['a']);
    expect(matching('objectTypeProperty(arrayOfStringExample contains "say \\"hi\\"")')).toEqual(['d']);
  });

  it('contains any of several values', () => {
    expect(matching('objectTypeProperty(arrayOfIntExample contains any (1, 2))')).toEqual(['a', 'b']);
    expect(matching('objectTypeProperty(arrayOfIntExample contains any (100))')).toEqual([]);
  });

  it('contains all of several values', () => {
    expect(matching('objectTypeProperty(arrayOfIntExample contains all (2, 4, 6))')).toEqual(['a']);
    expect(matching('objectTypeProperty(arrayOfIntExample contains all (2, 3))')).toEqual([]);
    expect(matching('objectTypeProperty(arrayOfStringExample contains all ("catcat", "dogdog"))')).toEqual(['a']);
  });

  it('is empty when the array has no elements or is absent', () => {
    expect(matching('objectTypeProperty(arrayOfNumberNoDefaultsExample is empty)')).toEqual(['b', 'c', 'd']);
    expect(matching('objectTypeProperty(arrayOfNumberNoDefaultsExample is not empty)')).toEqual(['a']);
    expect(matching('objectTypeProperty(arrayOfObjectType is empty)')).toEqual(['c', 'd']);
  });

  it('is defined when present, even empty', () => {
    expect(matching('objectTypeProperty(arrayOfNumberNoDefaultsExample is defined)')).toEqual(['a', 'b']);
    expect(matching('objectTypeProperty(arrayOfNumberNoDefaultsExample is not defined)')).toEqual(['c', 'd']);
    expect(matching('key is defined')).toEqual(['a', 'b', 'd']);
    expect(matching('key is not defined')).toEqual(['c']);
    expect(matching('objectTypeProperty is defined')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('compilePredicates: nested and array-of-object predicates', () => {
  it('combines predicates inside one object', () => {
    expect(matching('objectTypeProperty(arrayOfIntExample contains any (1, 2) and arrayOfFloatExample = 0.82)')).toEqual(['b']);
    expect(matching('objectTypeProperty(arrayOfIntExample contains any (1, 2) or arrayOfFloatExample < 0)')).toEqual(['a', 'b', 'd']);
  });

  it('matches an array of objects when any element matches', () => {
    expect(matching('objectTypeProperty(arrayOfObjectType(integerExample > 500))')).toEqual(['a']);
    expect(matching('objectTypeProperty(arrayOfObjectType(integerExample < 500))')).toEqual(['b']);
    expect(matching('objectTypeProperty(arrayOfObjectType(integerExample > 0))')).toEqual(['a', 'b']);
  });

  it('requires one element to match the whole inner predicate', () => {
    expect(matching('objectTypeProperty(arrayOfObjectType(integerExample = 1554 and integerExampleInt32 = 2))')).toEqual(['a']);
    expect(matching('objectTypeProperty(arrayOfObjectType(integerExample = 1554 and integerExampleInt32 = 22))')).toEqual([]);
  });

  it('finds an element lacking a field', () => {
    expect(matching('objectTypeProperty(arrayOfObjectType(integerExampleInt32 is not defined))')).toEqual(['b']);
  });

  it('walks dotted paths through arrays of objects', () => {
    expect(matching('objectTypeProperty.arrayOfObjectType.integerExample = 200')).toEqual(['b']);
  });

  it('treats an absent object as one without fields', () => {
    const withoutObject = { ...resources.a, objectTypeProperty: undefined };
    const isNotDefined = compilePredicates(['objectTypeProperty(arrayOfIntExample is not defined)'], { schema, variables: {} });
    const equalsTwo = compilePredicates(['objectTypeProperty(arrayOfIntExample = 2)'], { schema, variables: {} });
    expect(isNotDefined(withoutObject)).toBe(true);
    expect(equalsTwo(withoutObject)).toBe(false);
  });
});

describe('compilePredicates: logic', () => {
  it('binds and tighter than or', () => {
    // version = 1 or (version = 3 and key = "delta"): only a
    expect(matching('version = 1 or version = 3 and key = "delta"')).toEqual(['a']);
    expect(matching('(version = 1 or version = 3) and key = "beta"')).toEqual(['b']);
    expect(matching('key = "beta" and version = 3 or version = 10')).toEqual(['b', 'd']);
  });

  it('negates with not(...)', () => {
    expect(matching('not(version = 1)')).toEqual(['b', 'c', 'd']);
    expect(matching('not(key = "alpha")')).toEqual(['b', 'c', 'd']);
    expect(matching('not(version = 1 or version = 2) and not(key is not defined)')).toEqual(['b', 'd']);
    expect(matching('not(not(version = 2))')).toEqual(['c']);
  });

  it('takes keywords in any case, field names exactly', () => {
    expect(matching('version = 1 OR version = 2')).toEqual(['a', 'c']);
    expect(matching('version >= 1 AnD version <= 2')).toEqual(['a', 'c']);
  });

  it('ANDs several where parameters', () => {
    expect(matching(['version >= 2', 'key is defined'])).toEqual(['b', 'd']);
    expect(matching([])).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('compilePredicates: input variables', () => {
  it('coerces a variable to the type of the field', () => {
    expect(matching('version = :v', { v: ['3'] })).toEqual(['b']);
    expect(matching('key = :k', { k: ['delta'] })).toEqual(['d']);
    expect(matching('createdAt < :t', { t: ['2024-01-01T00:00:00Z'] })).toEqual(['c']);
    expect(matching('objectTypeProperty(arrayOfFloatExample = :f)', { f: ['-3.5e2'] })).toEqual(['d']);
  });

  it('expands a variable with several values in a list', () => {
    expect(matching('key in :keys', { keys: ['alpha', 'beta'] })).toEqual(['a', 'b']);
    expect(matching('version in (10, :more)', { more: ['1', '2'] })).toEqual(['a', 'c', 'd']);
    expect(matching('objectTypeProperty(arrayOfIntExample contains any :ints)', { ints: ['3', '7'] })).toEqual(['b', 'd']);
    expect(matching('objectTypeProperty(arrayOfIntExample contains all :ints)', { ints: ['2', '6'] })).toEqual(['a']);
  });

  it('does not read variables as predicate syntax', () => {
    expect(matching('key = :k', { k: ['alpha" or key = "beta'] })).toEqual([]);
  });

  it('rejects an unknown variable', () => {
    const error = compileError('key = :missing', { other: ['x'] });
    expect(error.message).toBe(
      "Malformed parameter: where: Unknown variable ':missing' at column 7 (expected a query parameter 'var.missing' giving its value).",
    );
    expect(error.column).toBe(7);
  });

  it('says that a variable named with other characters than letters and digits cannot be given (the service reads var.[a-zA-Z0-9]+ only)', () => {
    expect(compileError('key = :a_b', {}).message).toBe(
      "Malformed parameter: where: Unknown variable ':a_b' at column 7 (expected a variable named with letters and digits only, as query parameters var.<name> are).",
    );
  });

  it('rejects a variable that is not a number for a number field', () => {
    expect(compileError('version = :v', { v: ['three'] }).message).toBe(
      "Malformed parameter: where: Variable ':v' is \"three\", which is not a number as field 'version' requires at column 11.",
    );
    expect(() => matching('version = :v', { v: [''] })).toThrow(ParameterError);
    expect(() => matching('version = :v', { v: ['0x10'] })).toThrow(ParameterError);
    expect(() => matching('version in :v', { v: ['1', 'x'] })).toThrow(/Variable ':v' is "x"/);
  });

  it('rejects a variable that is no date-time for a date-time field', () => {
    expect(() => matching('createdAt > :t', { t: ['yesterday'] })).toThrow(/not a date-time as field 'createdAt' requires/);
  });

  it('rejects several values where one is expected', () => {
    expect(compileError('version = :v', { v: ['1', '2'] }).message).toBe(
      "Malformed parameter: where: Variable ':v' has 2 values, but '=' takes one at column 11.",
    );
    expect(() => matching('objectTypeProperty(arrayOfIntExample contains :v)', { v: ['1', '2'] })).toThrow(/'contains' takes one/);
  });
});

describe('compilePredicates: errors', () => {
  it.each([
    ['objectTypeProperty.foo = 1', "Unknown field 'objectTypeProperty.foo' at column 1"],
    ['objectTypeProperty(foo = 1)', "Unknown field 'objectTypeProperty.foo' at column 20"],
    ['nope is defined', "Unknown field 'nope' at column 1"],
    ['constructor is defined', "Unknown field 'constructor' at column 1"],
    ['Version = 1', "Unknown field 'Version' at column 1"],
    ['objectTypeProperty(arrayOfObjectType(nope > 1))', "Unknown field 'objectTypeProperty.arrayOfObjectType.nope' at column 38"],
    ['version = 1 and key(x = 1)', "Field 'key' is a string, which has no fields to look into at column 17"],
    ['version.x = 1', "Field 'version' is a number, which has no fields to look into at column 1"],
    ['objectTypeProperty(arrayOfIntExample(x = 1))', "Field 'objectTypeProperty.arrayOfIntExample' is an array of numbers, which has no fields to look into at column 20"],
    [
      'objectTypeProperty = 1',
      "Operator '=' compares values, but 'objectTypeProperty' is an object at column 1 (expected 'objectTypeProperty(...)' to look inside it)",
    ],
    [
      'objectTypeProperty(arrayOfObjectType in (1))',
      "Operator 'in' compares values, but 'objectTypeProperty.arrayOfObjectType' is an array of objects at column 20 (expected 'arrayOfObjectType(...)' to look inside it)",
    ],
    ['key contains "a"', "Operator 'contains' needs an array of values, but 'key' is a string at column 1"],
    ['version contains any (1)', "Operator 'contains any' needs an array of values, but 'version' is a number at column 1"],
    ['objectTypeProperty(arrayOfObjectType contains all (1))', "Operator 'contains all' needs an array of values, but 'objectTypeProperty.arrayOfObjectType' is an array of objects at column 20"],
    ['key is empty', "Operator 'is empty' needs an array, but 'key' is a string at column 1"],
    ['version is not empty', "Operator 'is not empty' needs an array, but 'version' is a number at column 1"],
  ])('rejects %j', (where, problem) => {
    expect(compileError(where).message).toBe(`Malformed parameter: where: ${problem}.`);
  });

  it.each([
    ['version = "1"', 'Type mismatch: \'version\' holds numbers, but "1" is a string at column 11'],
    ['key = 1', "Type mismatch: 'key' holds strings, but 1 is a number at column 7"],
    ['key = true', "Type mismatch: 'key' holds strings, but true is a boolean at column 7"],
    ['key in ("a", 2)', "Type mismatch: 'key' holds strings, but 2 is a number at column 14"],
    ['objectTypeProperty(arrayOfIntExample contains any (1, "2"))', 'Type mismatch: \'objectTypeProperty.arrayOfIntExample\' holds numbers, but "2" is a string at column 55'],
    ['objectTypeProperty(arrayOfStringExample = 5)', "Type mismatch: 'objectTypeProperty.arrayOfStringExample' holds strings, but 5 is a number at column 43"],
    ['createdAt > 5', "Type mismatch: 'createdAt' holds date-times, but 5 is a number at column 13"],
    ['createdAt > "yesterday"', "\"yesterday\" is not an ISO 8601 date-time, as field 'createdAt' requires at column 13"],
    ['createdAt > "2024-02-30"', "\"2024-02-30\" is not an ISO 8601 date-time, as field 'createdAt' requires at column 13"],
    ['createdAt > "2024-01-01T24:00:00Z"', "\"2024-01-01T24:00:00Z\" is not an ISO 8601 date-time, as field 'createdAt' requires at column 13"],
  ])('rejects the mistyped value in %j', (where, problem) => {
    expect(compileError(where).message).toBe(`Malformed parameter: where: ${problem}.`);
  });

  it('reports syntax errors of any where parameter', () => {
    expect(() => compilePredicates(['version = 1', 'version = )'], { schema, variables: {} })).toThrow(
      "Malformed parameter: where: Unexpected token ')' at column 11 (expected a value).",
    );
  });

  it('checks the whole predicate before running it, also branches that would not be reached', () => {
    expect(() => compilePredicates(['version > 0 or nope = 1'], { schema, variables: {} })).toThrow(/Unknown field 'nope'/);
  });

  it('is robust against documents that do not follow the schema', () => {
    const matches = compilePredicates(['version > 1 or objectTypeProperty(arrayOfIntExample = 2)'], { schema, variables: {} });
    for (const doc of [null, 42, 'text', [], {}, { version: '5' }, { objectTypeProperty: { arrayOfIntExample: 2 } }]) {
      expect(matches(doc)).toBe(false);
    }
  });
});

describe('compilePredicates: booleans', () => {
  const flagSchema: ObjectFieldModel = { kind: 'object', fields: { flag: { kind: 'boolean' }, flags: { kind: 'array', items: { kind: 'boolean' } } } };
  const docs = [{ flag: true, flags: [true] }, { flag: false, flags: [false, true] }, {}];
  const matching = (where: string, variables: PredicateVariables = {}) =>
    docs.map((doc, index) => (compilePredicates([where], { schema: flagSchema, variables })(doc) ? index : -1)).filter((index) => index >= 0);

  it('compares booleans for equality', () => {
    expect(matching('flag = true')).toEqual([0]);
    expect(matching('flag != true')).toEqual([1]);
    expect(matching('flag = :f', { f: ['false'] })).toEqual([1]);
    expect(matching('flags contains false')).toEqual([1]);
  });

  it('does not order booleans', () => {
    expect(() => matching('flag < true')).toThrow(
      "Malformed parameter: where: Operator '<' does not apply to 'flag', which holds booleans at column 1 (expected '=' or '!=').",
    );
  });

  it('rejects a variable that is not a boolean', () => {
    expect(() => matching('flag = :f', { f: ['yes'] })).toThrow(/Variable ':f' is "yes", which is not a boolean/);
  });
});

describe('queryableFields', () => {
  it('derives the field tree of the resource', () => {
    expect(schema).toMatchObject({
      kind: 'object',
      fields: {
        id: { kind: 'string' },
        version: { kind: 'number' },
        createdAt: { kind: 'datetime' },
        objectTypeProperty: {
          kind: 'object',
          fields: {
            arrayOfIntExample: { kind: 'array', items: { kind: 'number' } },
            arrayOfStringExample: { kind: 'array', items: { kind: 'string' } },
            arrayOfObjectType: {
              kind: 'array',
              items: { kind: 'object', fields: { integerExample: { kind: 'number' }, integerExampleInt32: { kind: 'number' } } },
            },
          },
        },
      },
    });
  });

  it('reads nullable types, local references and booleans', () => {
    const derived = queryableFields({
      type: 'object',
      properties: {
        maybe: { type: ['string', 'null'] },
        either: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        flag: { type: 'boolean' },
        ref: { $ref: '#/$defs/Money' },
      },
      $defs: { Money: { type: 'object', properties: { centAmount: { type: 'integer' } } } },
    });
    expect(derived).toEqual({
      kind: 'object',
      fields: {
        maybe: { kind: 'string' },
        either: { kind: 'number' },
        flag: { kind: 'boolean' },
        ref: { kind: 'object', fields: { centAmount: { kind: 'number' } } },
      },
    });
  });

  it('hides fields without a single type, and cuts recursive references', () => {
    const derived = queryableFields({
      type: 'object',
      properties: {
        anything: {},
        union: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        tree: { $ref: '#/$defs/Tree' },
      },
      $defs: { Tree: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    });
    const compile = (where: string) => compilePredicates([where], { schema: derived, variables: {} });
    expect(() => compile('anything is defined')).toThrow("Unknown field 'anything' at column 1");
    expect(() => compile('union = 1')).toThrow("Unknown field 'union' at column 1");
    expect(() => compile('tree(children is empty)')).toThrow("Unknown field 'tree.children' at column 6");
    expect(compile('tree(name = "x")')({ tree: { name: 'x' } })).toBe(true);
  });

  it('keeps a field called __proto__ as a field', () => {
    const derived = queryableFields(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as object);
    expect(compilePredicates(['__proto__ = "x"'], { schema: derived, variables: {} })(JSON.parse('{"__proto__":"x"}'))).toBe(true);
  });

  it('refuses a schema that is not an object', () => {
    expect(() => queryableFields({ type: 'string' })).toThrow(/must describe an object/);
  });
});
