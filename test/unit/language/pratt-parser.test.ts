import { describe, expect, it } from 'vitest';
import { exactly, Lexer, matching, PrattParser, PrattRules, type Language, type TokensOf } from '../../../shared/domain/language';

/**
 * A small arithmetic language on the engine, the way the query languages use it: token rules for
 * the lexer, rule tables for the parser, and errors worded by the language.
 */
type ArithmeticToken = TokensOf<{
  number: number;
  word: string;
  '+': undefined;
  '-': undefined;
  '*': undefined;
  '^': undefined;
  '(': undefined;
  ')': undefined;
  ',': undefined;
  '<': undefined;
}>;

const lexer = new Lexer<ArithmeticToken>(/\s+/)
  .token('number', matching(/\d+/, ([text]) => Number(text)))
  .token('word', matching(/[a-z]+/i, ([text]) => text));
for (const symbol of ['+', '-', '*', '^', '(', ')', ',', '<'] as const) lexer.token(symbol, exactly(symbol));

class ArithmeticError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const language: Language<ArithmeticToken> = {
  errors: {
    at: (problem, offset) => new ArithmeticError(problem, offset),
    unexpected: (token, expected) =>
      new ArithmeticError(`Expected ${expected} but found ${token.type === 'end' ? 'the end' : `'${token.text}'`}`, token.offset),
  },
  keywordOf: (token) => (token.type === 'word' ? token.text.toLowerCase() : undefined),
  nesting: { maxDepth: 3, tooDeep: (open) => new ArithmeticError('Too deep', open.offset) },
};

const OPERAND = 'an operand';
const variables: Readonly<Record<string, number>> = { x: 10, mod: 4 };

const rules: PrattRules<ArithmeticToken, number> = new PrattRules<ArithmeticToken, number>()
  .prefix('number', (token) => token.value)
  .prefix('-', (_minus, parser) => -parser.parse(rules, OPERAND, 30))
  .prefix('(', (open, parser) =>
    parser.nested(open, () => {
      const inner = parser.parse(rules, OPERAND);
      parser.expect(')', "')'");
      return inner;
    }),
  )
  .prefixKeyword('pi', () => 3)
  .prefix('word', (word, parser) => {
    if (!parser.accept('(')) return variables[word.value] ?? Number.NaN;
    const args = parser.separated(',', () => parser.parse(rules, OPERAND));
    parser.expect(')', "',' or ')'");
    return Math.max(...args);
  })
  .infix('+', 10, (left, _plus, parser) => left + parser.parse(rules, OPERAND, 10))
  .infix('-', 10, (left, _minus, parser) => left - parser.parse(rules, OPERAND, 10))
  .infix('*', 20, (left, _times, parser) => left * parser.parse(rules, OPERAND, 20))
  .infixKeyword('mod', 20, (left, _mod, parser) => left % parser.parse(rules, OPERAND, 20))
  // Right-associative: the right side takes operators of the same power too.
  .infix('^', 40, (left, _power, parser) => left ** parser.parse(rules, OPERAND, 39));

function evaluate(source: string): number {
  const parser = new PrattParser(source, lexer, language);
  const value = parser.parse(rules, OPERAND);
  parser.expectEnd('an operator or the end');
  return value;
}

function failure(run: () => unknown): { message: string; offset: number } {
  try {
    run();
  } catch (error) {
    const { message, offset } = error as ArithmeticError;
    return { message, offset };
  }
  throw new Error('no error');
}

describe('PrattParser', () => {
  it('binds by binding power: * before +, parentheses first', () => {
    expect(evaluate('1 + 2 * 3')).toBe(7);
    expect(evaluate('2 * 3 + 1')).toBe(7);
    expect(evaluate('(1 + 2) * 3')).toBe(9);
  });

  it('makes operators of equal power left-associative, unless the rule says otherwise', () => {
    expect(evaluate('10 - 4 - 3')).toBe(3);
    expect(evaluate('2 ^ 3 ^ 2')).toBe(512);
  });

  it('lets a prefix rule choose how much of what follows it takes', () => {
    expect(evaluate('-2 * 3')).toBe(-6);
    expect(evaluate('-2 ^ 2')).toBe(-4);
  });

  it('finds keyword rules by the keyword the language reads, before type rules', () => {
    expect(evaluate('7 MOD 4')).toBe(3);
    expect(evaluate('pi * 2')).toBe(6);
  });

  it('treats a keyword as a keyword only where a table has a rule for it', () => {
    // `mod` has an infix rule but no prefix rule, so as an operand it is a variable's name.
    expect(evaluate('mod + 1')).toBe(5);
    expect(evaluate('mod mod 3')).toBe(1);
  });

  it('reads separated lists', () => {
    expect(evaluate('max(1, x, 3)')).toBe(10);
    expect(evaluate('max(2)')).toBe(2);
  });

  it('reports what was expected, where, in the language’s words', () => {
    expect(failure(() => evaluate('1 +'))).toEqual({ message: 'Expected an operand but found the end', offset: 3 });
    expect(failure(() => evaluate('(1 + 2'))).toEqual({ message: "Expected ')' but found the end", offset: 6 });
    expect(failure(() => evaluate('1 2'))).toEqual({ message: "Expected an operator or the end but found '2'", offset: 2 });
    expect(failure(() => evaluate('max(1 2)'))).toEqual({ message: "Expected ',' or ')' but found '2'", offset: 6 });
    expect(failure(() => evaluate('* 2'))).toEqual({ message: "Expected an operand but found '*'", offset: 0 });
  });

  it('refuses nesting past the language’s limit, at the bracket that goes too deep', () => {
    expect(evaluate('(((1)))')).toBe(1);
    expect(failure(() => evaluate('((((1))))'))).toEqual({ message: 'Too deep', offset: 3 });
    expect(failure(() => evaluate('(1) + (((2 + ((3))))'))).toEqual({ message: 'Too deep', offset: 13 });
  });

  it('reports lexer errors through the same language', () => {
    expect(failure(() => evaluate('1 + #'))).toEqual({ message: "Unexpected character '#'", offset: 4 });
  });
});

describe('PrattParser.operator', () => {
  interface Comparison {
    readonly field: string;
    readonly below: number;
  }
  const comparisonRules = new PrattRules<ArithmeticToken, Comparison, string>().infix('<', 50, (field, _less, parser) => ({
    field,
    below: parser.parse(rules, OPERAND),
  }));

  function comparison(source: string): Comparison {
    const parser = new PrattParser(source, lexer, language);
    const field = parser.expect('word', 'a field').value;
    return parser.operator(comparisonRules, field, "'<'");
  }

  it('applies exactly one operator of a table to a given left side', () => {
    expect(comparison('age < 2 * 9')).toEqual({ field: 'age', below: 18 });
  });

  it('refuses anything else there', () => {
    expect(failure(() => comparison('age 18'))).toEqual({ message: "Expected '<' but found '18'", offset: 4 });
    expect(failure(() => comparison('age'))).toEqual({ message: "Expected '<' but found the end", offset: 3 });
  });
});

describe('PrattParser token stream', () => {
  it('gives back source text as written between two tokens', () => {
    const parser = new PrattParser('max( 1 ,2 ) + 1', lexer, language);
    const first = parser.advance();
    while (!parser.isAt(')')) parser.advance();
    expect(parser.textBetween(first, parser.peek())).toBe('max( 1 ,2 )');
  });

  it('never moves past the end', () => {
    const parser = new PrattParser('1', lexer, language);
    parser.advance();
    expect(parser.advance().type).toBe('end');
    expect(parser.peek(5).type).toBe('end');
    expect(parser.acceptKeyword('x')).toBeUndefined();
  });
});
