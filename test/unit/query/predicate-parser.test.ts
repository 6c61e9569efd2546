import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, MAX_PREDICATE_LENGTH, ParameterError, parsePredicate, type PredicateNode } from '../../../shared/domain/query/index.js';

/** The syntax tree without columns, to compare shapes. */
function shape(source: string): unknown {
  return JSON.parse(JSON.stringify(parsePredicate(source), (key, value: unknown) => (key === 'column' ? undefined : value)));
}

function parseError(source: string): ParameterError {
  try {
    parsePredicate(source);
  } catch (error) {
    if (error instanceof ParameterError) return error;
    throw error;
  }
  throw new Error(`expected '${source}' to be rejected`);
}

const field = (...segments: string[]) => ({ segments });
const literal = (value: string | number | boolean) => ({ kind: 'literal', value });
const variable = (name: string) => ({ kind: 'variable', name });
const equals = (name: string, value: number) => ({ kind: 'comparison', field: field(name), operator: '=', value: literal(value) });

describe('parsePredicate: comparisons', () => {
  it.each([
    ['=', '='],
    ['!=', '!='],
    ['<>', '!='],
    ['<', '<'],
    ['<=', '<='],
    ['>', '>'],
    ['>=', '>='],
  ])('reads the operator %s', (written, operator) => {
    expect(shape(`version ${written} 1`)).toEqual({ kind: 'comparison', field: field('version'), operator, value: literal(1) });
  });

  it('needs no spaces around operators', () => {
    expect(shape('version>=2')).toEqual(shape('version >= 2'));
  });

  it('reads a string literal with escapes', () => {
    expect(shape(String.raw`key = "a \"quoted\" \\ \/ \n\t \u00e9"`)).toMatchObject({ value: literal('a "quoted" \\ / \n\t é') });
  });

  it('keeps spaces and keywords inside strings as they are', () => {
    expect(shape('key = " and or ( ) "')).toMatchObject({ value: literal(' and or ( ) ') });
  });

  it.each([
    ['0', 0],
    ['42', 42],
    ['-7', -7],
    ['0.82', 0.82],
    ['-1.5e3', -1500],
    ['2E-2', 0.02],
  ])('reads the number %s', (written, value) => {
    expect(shape(`version = ${written}`)).toMatchObject({ value: literal(value) });
  });

  it('reads true and false in any case', () => {
    expect(shape('flag = true')).toMatchObject({ value: literal(true) });
    expect(shape('flag = FALSE')).toMatchObject({ value: literal(false) });
  });

  it('reads an input variable', () => {
    expect(shape('key = :myKey')).toMatchObject({ value: variable('myKey') });
  });

  it('reads a dotted field path', () => {
    expect(shape('objectTypeProperty.arrayOfIntExample = 2')).toMatchObject({
      field: field('objectTypeProperty', 'arrayOfIntExample'),
    });
  });

  it('records where each part starts', () => {
    const node = parsePredicate('  version  = 1');
    expect(node).toMatchObject({ field: { column: 3 }, value: { column: 14 } });
  });
});

describe('parsePredicate: list, array and existence operators', () => {
  it('reads in and not in', () => {
    expect(shape('key in ("a", "b")')).toEqual({ kind: 'in', field: field('key'), negated: false, values: [literal('a'), literal('b')] });
    expect(shape('key NOT IN ("a")')).toEqual({ kind: 'in', field: field('key'), negated: true, values: [literal('a')] });
  });

  it('takes a variable as a whole list', () => {
    expect(shape('key in :keys')).toMatchObject({ values: [variable('keys')] });
  });

  it('mixes literals and variables in a list', () => {
    expect(shape('version in (1, :more, -2)')).toMatchObject({ values: [literal(1), variable('more'), literal(-2)] });
  });

  it('reads contains, contains any and contains all', () => {
    expect(shape('tags contains "x"')).toEqual({ kind: 'contains', field: field('tags'), value: literal('x') });
    expect(shape('tags contains any (1, 2)')).toEqual({ kind: 'containsAny', field: field('tags'), values: [literal(1), literal(2)] });
    expect(shape('tags Contains All (3)')).toEqual({ kind: 'containsAll', field: field('tags'), values: [literal(3)] });
  });

  it('reads is empty, is not empty, is defined and is not defined', () => {
    expect(shape('tags is empty')).toEqual({ kind: 'isEmpty', field: field('tags'), negated: false });
    expect(shape('tags is not empty')).toEqual({ kind: 'isEmpty', field: field('tags'), negated: true });
    expect(shape('key is defined')).toEqual({ kind: 'isDefined', field: field('key'), negated: false });
    expect(shape('key IS NOT DEFINED')).toEqual({ kind: 'isDefined', field: field('key'), negated: true });
  });

  it('lets a field be named like a keyword', () => {
    expect(shape('empty is empty')).toEqual({ kind: 'isEmpty', field: field('empty'), negated: false });
    expect(shape('not = 1')).toEqual(equals('not', 1));
  });
});

describe('parsePredicate: logic and nesting', () => {
  it('reads and / or chains as one node each', () => {
    expect(shape('a = 1 and b = 2 and c = 3')).toEqual({ kind: 'and', operands: [equals('a', 1), equals('b', 2), equals('c', 3)] });
    expect(shape('a = 1 or b = 2 or c = 3')).toEqual({ kind: 'or', operands: [equals('a', 1), equals('b', 2), equals('c', 3)] });
  });

  it('binds and tighter than or', () => {
    expect(shape('a = 1 or b = 2 and c = 3')).toEqual({
      kind: 'or',
      operands: [equals('a', 1), { kind: 'and', operands: [equals('b', 2), equals('c', 3)] }],
    });
    expect(shape('a = 1 and b = 2 or c = 3')).toEqual({
      kind: 'or',
      operands: [{ kind: 'and', operands: [equals('a', 1), equals('b', 2)] }, equals('c', 3)],
    });
  });

  it('lets parentheses override precedence', () => {
    expect(shape('(a = 1 or b = 2) and c = 3')).toEqual({
      kind: 'and',
      operands: [{ kind: 'or', operands: [equals('a', 1), equals('b', 2)] }, equals('c', 3)],
    });
  });

  it('reads keywords in any case', () => {
    expect(shape('a = 1 AND b = 2 Or c = 3')).toEqual(shape('a = 1 and b = 2 or c = 3'));
  });

  it('reads not(...)', () => {
    expect(shape('not(a = 1)')).toEqual({ kind: 'not', operand: equals('a', 1) });
    expect(shape('NOT (a = 1 or b = 2)')).toEqual({ kind: 'not', operand: { kind: 'or', operands: [equals('a', 1), equals('b', 2)] } });
  });

  it('reads a nested field predicate', () => {
    expect(shape('objectTypeProperty(arrayOfIntExample contains any (1, 2) and arrayOfFloatExample = 0.82)')).toEqual({
      kind: 'nested',
      field: field('objectTypeProperty'),
      predicate: {
        kind: 'and',
        operands: [
          { kind: 'containsAny', field: field('arrayOfIntExample'), values: [literal(1), literal(2)] },
          { kind: 'comparison', field: field('arrayOfFloatExample'), operator: '=', value: literal(0.82) },
        ],
      },
    });
  });

  it('reads predicates nested several levels', () => {
    expect(shape('objectTypeProperty(arrayOfObjectType(integerExample > 500))')).toEqual({
      kind: 'nested',
      field: field('objectTypeProperty'),
      predicate: {
        kind: 'nested',
        field: field('arrayOfObjectType'),
        predicate: { kind: 'comparison', field: field('integerExample'), operator: '>', value: literal(500) },
      },
    });
  });

  it(`accepts ${MAX_NESTING_DEPTH} levels of nesting`, () => {
    const source = `${'('.repeat(MAX_NESTING_DEPTH)}a = 1${')'.repeat(MAX_NESTING_DEPTH)}`;
    expect(shape(source)).toEqual(equals('a', 1));
  });

  it('counts not(...) and nested fields as levels too', () => {
    const levels = MAX_NESTING_DEPTH / 2;
    expect(() => parsePredicate(`${'not(a('.repeat(levels)}b = 1${'))'.repeat(levels)}`)).not.toThrow();
  });
});

describe('parsePredicate: errors', () => {
  it.each([
    ['version = )', "Unexpected token ')' at column 11 (expected a value)"],
    ['version =', 'Unexpected end of input at column 10 (expected a value)'],
    ['', "Unexpected end of input at column 1 (expected a field name, '(' or 'not(')"],
    ['   ', "Unexpected end of input at column 4 (expected a field name, '(' or 'not(')"],
    ['version 1', "Unexpected token '1' at column 9 (expected an operator such as '=', 'in', 'contains' or 'is', or '(' to look inside the field)"],
    ['a = 1 b = 2', "Unexpected token 'b' at column 7 (expected 'and', 'or' or the end of the predicate)"],
    ['a = 1 and', "Unexpected end of input at column 10 (expected a field name, '(' or 'not(')"],
    ['(a = 1', "Unexpected end of input at column 7 (expected 'and', 'or' or ')')"],
    ['a = 1)', "Unexpected token ')' at column 6 (expected 'and', 'or' or the end of the predicate)"],
    ['key in ()', "Unexpected token ')' at column 9 (expected a value)"],
    ['key in ("a",)', "Unexpected token ')' at column 13 (expected a value)"],
    ['key in ("a" "b")', `Unexpected token '"b"' at column 13 (expected ',' or ')')`],
    ['key in "a"', `Unexpected token '"a"' at column 8 (expected '(' and a list of values, or a :variable)`],
    ['key not "a"', `Unexpected token '"a"' at column 9 (expected 'in')`],
    ['tags contains', "Unexpected end of input at column 14 (expected 'any', 'all' or a value)"],
    ['key is', "Unexpected end of input at column 7 (expected 'not', 'empty' or 'defined')"],
    ['key is not null', "Unexpected token 'null' at column 12 (expected 'empty' or 'defined')"],
    ['key = yes', "Unexpected token 'yes' at column 7 (expected a value)"],
    ['a. = 1', "Unexpected token '=' at column 4 (expected a field name after '.')"],
    ['= 1', "Unexpected token '=' at column 1 (expected a field name, '(' or 'not(')"],
    ['not a = 1', "Unexpected token 'a' at column 5 (expected an operator such as '=', 'in', 'contains' or 'is', or '(' to look inside the field)"],
  ])('rejects %j', (source, problem) => {
    const error = parseError(source);
    expect(error.message).toBe(`Malformed parameter: where: ${problem}.`);
    expect(error.parameter).toBe('where');
  });

  it.each([
    ['key = "abc', 'Unterminated string at column 7 (expected a closing \'"\')', 7],
    [String.raw`key = "a\x"`, String.raw`Invalid escape sequence '\x' at column 9`, 9],
    [String.raw`key = "\u12"`, String.raw`Invalid escape sequence '\u' at column 8`, 8],
    ['version = 12abc', "Malformed number '12a' at column 11", 11],
    ['version = 1.2.3', "Malformed number '1.2.' at column 11", 11],
    ['version = 1e999', 'Number 1e999 is out of range at column 11', 11],
    ['version = -', "Unexpected character '-' at column 11", 11],
    ['key = #', "Unexpected character '#' at column 7", 7],
    ["key = 'single'", "Unexpected character ''' at column 7", 7],
    ['key = : x', "Expected a variable name after ':' at column 7", 7],
  ])('rejects the malformed token in %j', (source, problem, column) => {
    const error = parseError(source);
    expect(error.message).toBe(`Malformed parameter: where: ${problem}.`);
    expect(error.column).toBe(column);
  });

  it('quotes long tokens shortened', () => {
    const long = `"${'x'.repeat(100)}"`;
    expect(parseError(`key in (${long} ${long})`).message).toContain(`Unexpected token '"${'x'.repeat(39)}...'`);
  });

  it(`refuses nesting deeper than ${MAX_NESTING_DEPTH} levels, at the first parenthesis too many`, () => {
    const depth = MAX_NESTING_DEPTH + 1;
    const error = parseError(`${'('.repeat(depth)}a = 1${')'.repeat(depth)}`);
    expect(error.message).toBe(`Malformed parameter: where: Predicate nests deeper than ${MAX_NESTING_DEPTH} levels at column ${MAX_NESTING_DEPTH + 1}.`);
    expect(error.column).toBe(MAX_NESTING_DEPTH + 1);
  });

  it('refuses deep nesting of any kind before recursing far', () => {
    expect(() => parsePredicate(`${'a('.repeat(3_000)}b = 1${')'.repeat(3_000)}`)).toThrow(/nests deeper than 32 levels at column 66\./);
    expect(() => parsePredicate('not('.repeat(2_500))).toThrow(/nests deeper than 32 levels at column 132\./);
  });

  it(`refuses input longer than ${MAX_PREDICATE_LENGTH} characters`, () => {
    const longest = `key = "${'x'.repeat(MAX_PREDICATE_LENGTH - 8)}"`;
    expect(longest).toHaveLength(MAX_PREDICATE_LENGTH);
    expect(() => parsePredicate(longest)).not.toThrow();
    const error = parseError(`${longest} `);
    expect(error.message).toBe(`Malformed parameter: where: Predicate is 10001 characters long, more than the 10000 allowed.`);
    expect(error.column).toBeUndefined();
  });

  it('parses long flat chains without deep recursion', () => {
    const source = Array.from({ length: 800 }, (_, index) => `v = ${index}`).join(' or ');
    const node = parsePredicate(source) as Extract<PredicateNode, { kind: 'or' }>;
    expect(node.operands).toHaveLength(800);
  });
});
