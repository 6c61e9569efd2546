import { describe, expect, it } from 'vitest';
import type { ObjectFieldModel } from '../../../shared/domain/language/index.js';
import { ParameterError, compileSort, resourceFields } from '../../../shared/domain/query/index.js';

const schema = resourceFields();

/** Resources shaped like examples/object-test-type.json, ids in the order a < b < c < d < e. */
const resources = {
  a: {
    id: '10000000-0000-4000-8000-000000000000',
    key: 'alpha',
    version: 1,
    createdAt: '2024-01-01T10:00:00.000Z',
    objectTypeProperty: {
      arrayOfIntExample: [2, 4, 2, 6, 4, 6, 2],
      arrayOfFloatExample: [1.64],
      arrayOfStringExample: ['dogdog', 'catcat', 'birdbird'],
      arrayOfObjectType: [{ integerExample: 1554 }, { integerExample: 60000 }],
    },
  },
  b: {
    id: '20000000-0000-4000-8000-000000000000',
    key: 'beta',
    version: 3,
    createdAt: '2024-03-15T08:30:00.000Z',
    objectTypeProperty: {
      arrayOfIntExample: [1, 3],
      arrayOfFloatExample: [0.82],
      arrayOfStringExample: ['fish'],
      arrayOfObjectType: [{ integerExample: 200 }],
    },
  },
  c: {
    id: '30000000-0000-4000-8000-000000000000',
    version: 2,
    createdAt: '2023-06-30T23:59:59.999Z',
    objectTypeProperty: {},
  },
  d: {
    id: '40000000-0000-4000-8000-000000000000',
    key: 'delta',
    version: 3,
    createdAt: '2024-03-15T10:30:00.000+02:00',
    objectTypeProperty: { arrayOfIntExample: [7], arrayOfFloatExample: [-350], arrayOfStringExample: ['Dog'] },
  },
  e: {
    id: '50000000-0000-4000-8000-000000000000',
    key: 'echo',
    version: 1,
    createdAt: '2024-01-01T10:00:00.000Z',
    objectTypeProperty: { arrayOfIntExample: [0, 100], arrayOfObjectType: [{ integerExample: 100 }, { integerExample: 70000 }] },
  },
};

type Name = keyof typeof resources;

/** The fixture resources in a scrambled order, sorted, as names. */
function sorted(...sorts: string[]): Name[] {
  const scrambled: Name[] = ['d', 'b', 'e', 'a', 'c'];
  const compare = compileSort(sorts, schema);
  return scrambled
    .map((name) => resources[name])
    .sort(compare)
    .map((resource) => scrambled.find((name) => resources[name] === resource)!);
}

function sortError(sort: string): ParameterError {
  try {
    compileSort(['version asc', sort], schema);
  } catch (error) {
    if (error instanceof ParameterError) return error;
    throw error;
  }
  throw new Error(`expected '${sort}' to be rejected`);
}

describe('compileSort', () => {
  it('sorts by id when no sort is given', () => {
    expect(sorted()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('sorts ascending and descending', () => {
    expect(sorted('key asc')).toEqual(['a', 'b', 'd', 'e', 'c']);
    expect(sorted('key desc')).toEqual(['e', 'd', 'b', 'a', 'c']);
    expect(sorted('id desc')).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('breaks ties by id ascending', () => {
    expect(sorted('version asc')).toEqual(['a', 'e', 'c', 'b', 'd']);
    expect(sorted('version desc')).toEqual(['b', 'd', 'c', 'a', 'e']);
  });

  it('applies several sorts in order', () => {
    expect(sorted('version desc', 'key desc')).toEqual(['d', 'b', 'c', 'e', 'a']);
    expect(sorted('version asc', 'id desc')).toEqual(['e', 'a', 'c', 'd', 'b']);
  });

  it('sorts date-times as instants, not as text', () => {
    // d's "10:30+02:00" is the same instant as b's "08:30Z".
    expect(sorted('createdAt asc')).toEqual(['c', 'a', 'e', 'b', 'd']);
    expect(sorted('createdAt desc')).toEqual(['b', 'd', 'a', 'e', 'c']);
  });

  it('sorts arrays by their smallest value ascending and their largest descending', () => {
    expect(sorted('objectTypeProperty.arrayOfIntExample asc')).toEqual(['e', 'b', 'a', 'd', 'c']);
    expect(sorted('objectTypeProperty.arrayOfIntExample desc')).toEqual(['e', 'd', 'a', 'b', 'c']);
    expect(sorted('objectTypeProperty.arrayOfFloatExample asc')).toEqual(['d', 'b', 'a', 'c', 'e']);
    expect(sorted('objectTypeProperty.arrayOfStringExample asc')).toEqual(['d', 'a', 'b', 'c', 'e']);
  });

  it('sorts by a field inside an array of objects', () => {
    expect(sorted('objectTypeProperty.arrayOfObjectType.integerExample asc')).toEqual(['e', 'b', 'a', 'c', 'd']);
    expect(sorted('objectTypeProperty.arrayOfObjectType.integerExample desc')).toEqual(['e', 'a', 'b', 'c', 'd']);
  });

  it('puts documents without a value last in both directions', () => {
    expect(sorted('key asc').at(-1)).toBe('c');
    expect(sorted('key desc').at(-1)).toBe('c');
    expect(sorted('objectTypeProperty.arrayOfFloatExample desc').slice(-2)).toEqual(['c', 'e']);
  });

  it('accepts the direction in any case and extra whitespace', () => {
    expect(sorted('  key   DESC ')).toEqual(sorted('key desc'));
    expect(sorted('key Asc')).toEqual(sorted('key asc'));
  });

  it('is stable: without an id field, equal documents keep their order', () => {
    const rankSchema: ObjectFieldModel = { kind: 'object', fields: { rank: { kind: 'number' }, label: { kind: 'string' } } };
    const rows = [
      { rank: 2, label: 'first two' },
      { rank: 1, label: 'first one' },
      { label: 'no rank' },
      { rank: 2, label: 'second two' },
      { rank: 1, label: 'second one' },
    ];
    const labels = [...rows].sort(compileSort(['rank asc'], rankSchema)).map((row) => row.label);
    expect(labels).toEqual(['first one', 'second one', 'first two', 'second two', 'no rank']);
  });

  it('does not let documents that break the schema disturb the order', () => {
    const compare = compileSort(['version asc'], schema);
    const odd = [{ id: 'z', version: 'seven' }, null, resources.b, resources.a];
    expect(odd.sort(compare).slice(0, 2)).toEqual([resources.a, resources.b]);
  });
});

describe('compileSort: errors', () => {
  it.each([
    ['nope asc', "Unknown field 'nope' at column 1"],
    ['  objectTypeProperty.nope desc', "Unknown field 'objectTypeProperty.nope' at column 3"],
    ['Version asc', "Unknown field 'Version' at column 1"],
    ['constructor asc', "Unknown field 'constructor' at column 1"],
    ['version.x asc', "Unknown field 'version.x': 'version' is a number at column 1"],
    ['version up', "Unexpected token 'up' at column 9 (expected 'asc' or 'desc')"],
    ['version', "Unexpected end of input at column 8 (expected 'asc' or 'desc')"],
    ['version asc desc', "Unexpected token 'desc' at column 13 (expected the end of the sort expression)"],
    ['', "Unexpected end of input at column 1 (expected '<field> asc' or '<field> desc')"],
    ['version asc;', "Unexpected character ';' at column 12"],
    ['version.', "Unexpected end of input at column 9 (expected a field name after '.')"],
    [
      'objectTypeProperty asc',
      "Cannot sort by 'objectTypeProperty', which is an object at column 1 (expected a field holding strings, numbers, booleans or date-times)",
    ],
    [
      'objectTypeProperty.arrayOfObjectType desc',
      "Cannot sort by 'objectTypeProperty.arrayOfObjectType', which is an array of objects at column 1 (expected a field holding strings, numbers, booleans or date-times)",
    ],
  ])('rejects %j', (sort, problem) => {
    const error = sortError(sort);
    expect(error.message).toBe(`Malformed parameter: sort: ${problem}.`);
    expect(error.parameter).toBe('sort');
  });

  it('refuses overly long sort expressions', () => {
    expect(() => compileSort([`${'a'.repeat(2_000)} asc`], schema)).toThrow(/more than the 1000 allowed/);
  });
});
