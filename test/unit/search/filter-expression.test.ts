import { describe, expect, it } from 'vitest';
import { compileError, resource, runSearch } from './fixtures';

const alpha = resource({
  key: 'alpha',
  createdAt: '2024-01-15T10:00:00.000Z',
  someProperty: 'say "hi"',
  objectTypeProperty: {
    arrayOfIntExample: [2, 4, 2, 6],
    arrayOfFloatExample: [1.64],
    arrayOfStringExample: ['dogdog', 'catcat'],
    arrayOfObjectType: [
      { integerExample: 1554, integerExampleInt32: 2 },
      { integerExample: 60000, integerExampleInt32: 22 },
    ],
  },
});
const beta = resource({
  key: 'beta',
  version: 3,
  createdAt: '2024-02-15T10:00:00.000Z',
  someProperty: 'small',
  objectTypeProperty: {
    arrayOfIntExample: [1, 10],
    arrayOfFloatExample: [-2.5],
    arrayOfStringExample: ['dog'],
    arrayOfObjectType: [{ integerExample: 5 }],
  },
});
const gamma = resource({
  key: 'gamma',
  version: 2,
  createdAt: '2024-03-15T10:00:00.000Z',
  objectTypeProperty: { arrayOfIntExample: [100], arrayOfStringExample: [] },
});
const delta = resource({ someProperty: 'x', objectTypeProperty: { arrayOfStringExample: ['CAT'] } });
const docs = [alpha, beta, gamma, delta];
const deltaId = delta['id'];

const filtered = (filter: string | string[]) => runSearch({ filter }, docs).keys;
const ints = 'objectTypeProperty.arrayOfIntExample';
const strings = 'objectTypeProperty.arrayOfStringExample';

describe('filter values', () => {
  it('matches a number against any element of an array field', () => {
    expect(filtered(`${ints}:4`)).toEqual(['alpha']);
    expect(filtered(`${ints}:7`)).toEqual([]);
  });

  it('matches any of several values', () => {
    expect(filtered(`${ints}:4,10`)).toEqual(['alpha', 'beta']);
    expect(filtered(`${ints}: 4 , 10 , 100`)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('matches decimal and negative numbers', () => {
    expect(filtered('objectTypeProperty.arrayOfFloatExample:1.64')).toEqual(['alpha']);
    expect(filtered('objectTypeProperty.arrayOfFloatExample:-2.5')).toEqual(['beta']);
    expect(filtered('objectTypeProperty.arrayOfFloatExample:164e-2')).toEqual(['alpha']);
  });

  it('matches quoted strings exactly, case included', () => {
    expect(filtered('key:"beta"')).toEqual(['beta']);
    expect(filtered(`${strings}:"dog","CAT"`)).toEqual(['beta', deltaId]);
    expect(filtered(`${strings}:"cat"`)).toEqual([]);
    expect(filtered(`${strings}:"do"`)).toEqual([]);
  });

  it('reads escaped quotes inside strings', () => {
    expect(filtered('someProperty:"say \\"hi\\""')).toEqual(['alpha']);
  });

  it('filters on top-level fields: id, key, version', () => {
    expect(filtered(`id:"${String(gamma['id'])}"`)).toEqual(['gamma']);
    expect(filtered('version:3')).toEqual(['beta']);
    expect(filtered('version:1')).toEqual(['alpha', deltaId]);
  });

  it('filters on fields of objects inside arrays', () => {
    expect(filtered('objectTypeProperty.arrayOfObjectType.integerExample:5')).toEqual(['beta']);
    expect(filtered('objectTypeProperty.arrayOfObjectType.integerExample:60000,5')).toEqual(['alpha', 'beta']);
    expect(filtered('objectTypeProperty.arrayOfObjectType.integerExampleInt32:22')).toEqual(['alpha']);
  });

  it('ignores whitespace between tokens', () => {
    expect(filtered('  key :  "beta"  ')).toEqual(['beta']);
    expect(filtered(`${ints}:range ( 5  to  10 )`)).toEqual(['alpha', 'beta']);
  });
});

describe('filter ranges', () => {
  it('includes both ends', () => {
    expect(filtered(`${ints}:range(5 to 10)`)).toEqual(['alpha', 'beta']);
    expect(filtered(`${ints}:range(6 to 6)`)).toEqual(['alpha']);
  });

  it('takes * for an open end', () => {
    expect(filtered(`${ints}:range(* to 1)`)).toEqual(['beta']);
    expect(filtered(`${ints}:range(100 to *)`)).toEqual(['gamma']);
    expect(filtered(`${ints}:range(* to *)`)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('matches any of several ranges, with or without repeating the keyword', () => {
    expect(filtered(`${ints}:range(1 to 1), range(100 to *)`)).toEqual(['beta', 'gamma']);
    expect(filtered(`${ints}:range (1 to 1), (100 to *)`)).toEqual(['beta', 'gamma']);
  });

  it('mixes values and ranges', () => {
    expect(filtered(`${ints}:4, range(100 to *)`)).toEqual(['alpha', 'gamma']);
  });

  it('works on nested and decimal fields', () => {
    expect(filtered('objectTypeProperty.arrayOfObjectType.integerExampleInt32:range(20 to 30)')).toEqual(['alpha']);
    expect(filtered('objectTypeProperty.arrayOfFloatExample:range(-3 to 0)')).toEqual(['beta']);
    expect(filtered('version:range(2 to *)')).toEqual(['beta', 'gamma']);
  });

  it('compares text ranges character by character, as ISO timestamps sort', () => {
    expect(filtered('createdAt:range("2024-02-01T00:00:00.000Z" to *)')).toEqual(['beta', 'gamma']);
    expect(filtered('key:range("b" to "c")')).toEqual(['beta']);
  });
});

describe('exists and missing', () => {
  it('tests whether a document has a value for the field', () => {
    expect(filtered('key:exists')).toEqual(['alpha', 'beta', 'gamma']);
    expect(filtered('key:missing')).toEqual([deltaId]);
    expect(filtered('someProperty:missing')).toEqual(['gamma']);
    expect(filtered(`${ints}:missing`)).toEqual([deltaId]);
  });

  it('treats an empty array as missing', () => {
    expect(filtered(`${strings}:missing`)).toEqual(['gamma']);
  });

  it('applies to object fields too', () => {
    expect(filtered('objectTypeProperty.arrayOfObjectType:exists')).toEqual(['alpha', 'beta']);
    expect(filtered('objectTypeProperty:exists')).toHaveLength(4);
  });
});

describe('several filters', () => {
  it('must all match', () => {
    expect(filtered([`${ints}:2,10`, 'key:"beta"'])).toEqual(['beta']);
    expect(filtered([`${ints}:2,10`, 'version:2'])).toEqual([]);
  });
});

describe('filter errors', () => {
  const refusal = (filter: string) => compileError({ filter });

  it('names an unknown field', () => {
    expect(refusal('objectTypeProperty.nope:1')).toEqual({
      name: 'ParameterError',
      parameter: 'filter',
      message: "Malformed parameter: filter: Unknown field 'objectTypeProperty.nope'.",
    });
    expect(refusal('key.length:1').message).toBe("Malformed parameter: filter: Unknown field 'key.length'.");
    expect(refusal('__proto__:exists').message).toBe("Malformed parameter: filter: Unknown field '__proto__'.");
  });

  it('names the parameter the expression came in', () => {
    expect(compileError({ 'filter.query': 'nope:1' }).parameter).toBe('filter.query');
    expect(compileError({ 'filter.facets': 'nope:1' }).parameter).toBe('filter.facets');
  });

  it.each([
    ['key', "Expected ':' but found the end of the expression at column 4 of 'key'."],
    [
      'key:',
      'Expected a number, a "quoted string", range(from to to), exists or missing but found the end of the expression at column 5 of \'key:\'.',
    ],
    [
      'key:beta',
      'Expected a number, a "quoted string", range(from to to), exists or missing but found \'beta\' at column 5 of \'key:beta\'.',
    ],
    [':1', "Expected a field name but found ':' at column 1 of ':1'."],
    ['objectTypeProperty.:1', "Expected a field name after '.' but found ':' at column 20 of 'objectTypeProperty.:1'."],
    ['version:1 2', "Expected ',' or the end of the expression but found '2' at column 11 of 'version:1 2'."],
    [
      'version:1,',
      'Expected a number, a "quoted string", range(from to to), exists or missing but found the end of the expression at column 11 of \'version:1,\'.',
    ],
    ['version:range(1 to 5', "Expected ')' but found the end of the expression at column 21 of 'version:range(1 to 5'."],
    ['version:range(1 5)', "Expected 'to' but found '5' at column 17 of 'version:range(1 5)'."],
    ['version:range 1 to 5', "Expected '(' but found '1' at column 15 of 'version:range 1 to 5'."],
    [
      'version:range(a to 5)',
      'Expected a number, a "quoted string" or * for an open end but found \'a\' at column 15 of \'version:range(a to 5)\'.',
    ],
    ['key:"abc', 'Unterminated string: a closing \'"\' is missing at column 5 of \'key:"abc\'.'],
    ['key:"a";', "Unexpected character ';' at column 8 of 'key:\"a\";'."],
    ['key:😀', "Unexpected character '😀' at column 5 of 'key:😀'."],
    ['version:1e400', "The number 1e400 is too large at column 9 of 'version:1e400'."],
    ['key:exists,missing', "Expected the end of the expression but found ',' at column 11 of 'key:exists,missing'."],
  ])('says where %s goes wrong', (filter, detail) => {
    expect(refusal(filter)).toEqual({ name: 'ParameterError', parameter: 'filter', message: `Malformed parameter: filter: ${detail}` });
  });

  it('refuses values of the wrong kind for the field', () => {
    expect(refusal('key:12').message).toBe(
      'Malformed parameter: filter: The field \'key\' holds text, so expected a "quoted string" but found 12 at column 5 of \'key:12\'.',
    );
    expect(refusal('version:"3"').message).toBe(
      'Malformed parameter: filter: The field \'version\' holds numbers, so expected a number but found "3" at column 9 of \'version:"3"\'.',
    );
    expect(refusal('version:range(1 to "9")').parameter).toBe('filter');
    expect(refusal('key:range("a" to 3)').parameter).toBe('filter');
  });

  it('refuses values for a field that holds objects', () => {
    expect(refusal('objectTypeProperty:1').message).toBe(
      "Malformed parameter: filter: The field 'objectTypeProperty' holds no numbers or text, so only exists and missing apply to it.",
    );
  });

  it('refuses a range whose lower end is above its upper end', () => {
    expect(refusal('version:1, range(5 to 1)').message).toBe(
      "Malformed parameter: filter: The lower end of range(5 to 1) is above its upper end at column 12 of 'version:1, range(5 to 1)'.",
    );
  });

  it('takes no alias', () => {
    expect(refusal('version:1 as v').message).toBe(
      "Malformed parameter: filter: Expected ',' or the end of the expression but found 'as' at column 11 of 'version:1 as v'.",
    );
  });
});
