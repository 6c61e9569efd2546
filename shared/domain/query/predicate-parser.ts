/**
 * Parser for commercetools query predicates (https://docs.commercetools.com/api/predicates/query):
 * a tokenizer and a recursive-descent parser producing a typed syntax tree. It knows nothing of
 * the resource's fields; the evaluator checks names and types against the field schema.
 *
 *   predicate      := disjunction END
 *   disjunction    := conjunction ("or" conjunction)*
 *   conjunction    := operand ("and" operand)*              -- "and" binds tighter than "or"
 *   operand        := "(" disjunction ")"
 *                   | "not" "(" disjunction ")"
 *                   | fieldPath fieldPredicate
 *   fieldPredicate := "(" disjunction ")"                    -- nested: objectTypeProperty(...)
 *                   | ("=" | "!=" | "<>" | "<" | "<=" | ">" | ">=") value
 *                   | ["not"] "in" valueList
 *                   | "contains" ("any" valueList | "all" valueList | value)
 *                   | "is" ["not"] ("empty" | "defined")
 *   fieldPath      := word ("." word)*                       -- a.b.c is shorthand for a(b(c ...))
 *   valueList      := "(" value ("," value)* ")" | variable
 *   value          := string | number | "true" | "false" | variable
 *
 * Keywords are case-insensitive and only keywords where the grammar expects one, so a field may
 * well be called "key" or "empty".
 */
import { QueryError } from './query-error.js';

/** Longer input is refused before it is read, so one request cannot buy unbounded work. */
export const MAX_PREDICATE_LENGTH = 10_000;
/** Groups, not(...) and nested field predicates deeper than this are refused: parsing and the
 * compiled predicate recurse once per level. */
export const MAX_NESTING_DEPTH = 32;

const PARAMETER = 'where';

// ---------------------------------------------------------------------------------------------
// Syntax tree. Every node records `position`, the offset in the source where it starts.
// ---------------------------------------------------------------------------------------------

export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A field reference as written: `version`, or the dotted shorthand `objectTypeProperty.arrayOfIntExample`. */
export interface FieldPath {
  readonly segments: readonly string[];
  readonly position: number;
}

export interface LiteralValue {
  readonly kind: 'literal';
  readonly value: string | number | boolean;
  readonly position: number;
}

/** `:name`, bound to the query parameter `var.name` when the predicate is compiled. */
export interface VariableValue {
  readonly kind: 'variable';
  readonly name: string;
  readonly position: number;
}

export type ValueNode = LiteralValue | VariableValue;

export interface AndNode {
  readonly kind: 'and';
  readonly operands: readonly PredicateNode[];
  readonly position: number;
}

export interface OrNode {
  readonly kind: 'or';
  readonly operands: readonly PredicateNode[];
  readonly position: number;
}

export interface NotNode {
  readonly kind: 'not';
  readonly operand: PredicateNode;
  readonly position: number;
}

/** `field = value`; `<>` is read as `!=`. */
export interface ComparisonNode {
  readonly kind: 'comparison';
  readonly field: FieldPath;
  readonly operator: ComparisonOperator;
  readonly value: ValueNode;
  readonly position: number;
}

/** `field in (...)`, or `field not in (...)` when negated. */
export interface InNode {
  readonly kind: 'in';
  readonly field: FieldPath;
  readonly negated: boolean;
  readonly values: readonly ValueNode[];
  readonly position: number;
}

/** `field contains value`: the array holds that value. */
export interface ContainsNode {
  readonly kind: 'contains';
  readonly field: FieldPath;
  readonly value: ValueNode;
  readonly position: number;
}

/** `field contains any (...)` / `field contains all (...)`. */
export interface ContainsSomeNode {
  readonly kind: 'containsAny' | 'containsAll';
  readonly field: FieldPath;
  readonly values: readonly ValueNode[];
  readonly position: number;
}

/** `field is empty`, or `field is not empty` when negated. */
export interface IsEmptyNode {
  readonly kind: 'isEmpty';
  readonly field: FieldPath;
  readonly negated: boolean;
  readonly position: number;
}

/** `field is defined`, or `field is not defined` when negated. */
export interface IsDefinedNode {
  readonly kind: 'isDefined';
  readonly field: FieldPath;
  readonly negated: boolean;
  readonly position: number;
}

/** `field(predicate)`: the predicate applies inside an object field, or to any element of an array of objects. */
export interface NestedNode {
  readonly kind: 'nested';
  readonly field: FieldPath;
  readonly predicate: PredicateNode;
  readonly position: number;
}

export type FieldPredicateNode = ComparisonNode | InNode | ContainsNode | ContainsSomeNode | IsEmptyNode | IsDefinedNode | NestedNode;
export type PredicateNode = AndNode | OrNode | NotNode | FieldPredicateNode;

/** Parses one `where` parameter. Throws QueryError saying where the input stops making sense. */
export function parsePredicate(source: string): PredicateNode {
  if (source.length > MAX_PREDICATE_LENGTH) {
    throw new QueryError(PARAMETER, `Predicate is ${source.length} characters long, more than the ${MAX_PREDICATE_LENGTH} allowed`);
  }
  return new Parser(tokenize(source)).parsePredicate();
}

// ---------------------------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------------------------

type Punctuation = '(' | ')' | ',' | '.';

/** `text` is the token exactly as it appears in the source. */
type Token =
  | { readonly kind: 'word'; readonly text: string; readonly position: number }
  | { readonly kind: 'string'; readonly text: string; readonly value: string; readonly position: number }
  | { readonly kind: 'number'; readonly text: string; readonly value: number; readonly position: number }
  | { readonly kind: 'variable'; readonly text: string; readonly name: string; readonly position: number }
  | { readonly kind: 'operator'; readonly text: string; readonly operator: ComparisonOperator; readonly position: number }
  | { readonly kind: 'punctuation'; readonly text: Punctuation; readonly position: number }
  | { readonly kind: 'end'; readonly text: ''; readonly position: number };

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const PUNCTUATION = new Set<string>(['(', ')', ',', '.']);
/** Two-character operators first, so `<=` is not read as `<` followed by `=`. */
const OPERATORS: ReadonlyArray<readonly [string, ComparisonOperator]> = [
  ['<=', '<='],
  ['>=', '>='],
  ['!=', '!='],
  ['<>', '!='],
  ['=', '='],
  ['<', '<'],
  ['>', '>'],
];
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const VARIABLE = /:([A-Za-z0-9_]+)/y;
/** A number running straight into one of these ("12abc", "1.5.2") is malformed, not two tokens. */
const NUMBER_CONTINUATION = /[A-Za-z0-9_.]/;
const STRING_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < source.length) {
    if (WHITESPACE.has(source.charAt(position))) {
      position += 1;
      continue;
    }
    const token = readToken(source, position);
    tokens.push(token);
    position += token.text.length;
  }
  tokens.push({ kind: 'end', text: '', position: source.length });
  return tokens;
}

function readToken(source: string, position: number): Token {
  const char = source.charAt(position);
  if (PUNCTUATION.has(char)) return { kind: 'punctuation', text: char as Punctuation, position };
  if (char === '"') return readString(source, position);
  if (char === ':') return readVariable(source, position);
  const token = readOperator(source, position) ?? readNumber(source, position) ?? readWord(source, position);
  if (!token) throw new QueryError(PARAMETER, `Unexpected character '${char}'`, { position });
  return token;
}

function readOperator(source: string, position: number): Token | undefined {
  for (const [text, operator] of OPERATORS) {
    if (source.startsWith(text, position)) return { kind: 'operator', text, operator, position };
  }
  return undefined;
}

function readNumber(source: string, position: number): Token | undefined {
  const text = matchAt(NUMBER, source, position)?.[0];
  if (text === undefined) return undefined;
  const end = position + text.length;
  if (NUMBER_CONTINUATION.test(source.charAt(end))) {
    throw new QueryError(PARAMETER, `Malformed number '${source.slice(position, end + 1)}'`, { position });
  }
  const value = Number(text);
  if (!Number.isFinite(value)) throw new QueryError(PARAMETER, `Number ${text} is out of range`, { position });
  return { kind: 'number', text, value, position };
}

function readWord(source: string, position: number): Token | undefined {
  const text = matchAt(WORD, source, position)?.[0];
  return text === undefined ? undefined : { kind: 'word', text, position };
}

function readVariable(source: string, position: number): Token {
  const match = matchAt(VARIABLE, source, position);
  if (!match?.[1]) throw new QueryError(PARAMETER, "Expected a variable name after ':'", { position });
  return { kind: 'variable', text: match[0], name: match[1], position };
}

/** A double-quoted string with JSON's backslash escapes. */
function readString(source: string, start: number): Token {
  let value = '';
  let position = start + 1;
  while (position < source.length) {
    const char = source.charAt(position);
    if (char === '"') {
      return { kind: 'string', text: source.slice(start, position + 1), value, position: start };
    }
    if (char === '\\') {
      const escape = readEscape(source, position);
      value += escape.value;
      position += escape.length;
    } else {
      value += char;
      position += 1;
    }
  }
  throw new QueryError(PARAMETER, 'Unterminated string', { position: start, expected: 'a closing \'"\'' });
}

function readEscape(source: string, position: number): { value: string; length: number } {
  const letter = source.charAt(position + 1);
  const simple = Object.hasOwn(STRING_ESCAPES, letter) ? STRING_ESCAPES[letter] : undefined;
  if (simple !== undefined) return { value: simple, length: 2 };
  const hex = source.slice(position + 2, position + 6);
  if (letter === 'u' && /^[0-9A-Fa-f]{4}$/.test(hex)) {
    return { value: String.fromCharCode(Number.parseInt(hex, 16)), length: 6 };
  }
  throw new QueryError(PARAMETER, `Invalid escape sequence '\\${letter}'`, { position });
}

function matchAt(pattern: RegExp, source: string, position: number): RegExpExecArray | null {
  pattern.lastIndex = position;
  return pattern.exec(source);
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

class Parser {
  private readonly tokens: readonly Token[];
  private index = 0;
  private depth = 0;

  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }

  parsePredicate(): PredicateNode {
    const predicate = this.parseDisjunction();
    const next = this.peek();
    if (next.kind !== 'end') throw unexpected(next, "'and', 'or' or the end of the predicate");
    return predicate;
  }

  private parseDisjunction(): PredicateNode {
    const first = this.parseConjunction();
    const operands = [first];
    while (this.acceptKeyword('or')) operands.push(this.parseConjunction());
    return operands.length === 1 ? first : { kind: 'or', operands, position: first.position };
  }

  private parseConjunction(): PredicateNode {
    const first = this.parseOperand();
    const operands = [first];
    while (this.acceptKeyword('and')) operands.push(this.parseOperand());
    return operands.length === 1 ? first : { kind: 'and', operands, position: first.position };
  }

  private parseOperand(): PredicateNode {
    const token = this.peek();
    if (isPunctuation(token, '(')) return this.parseGroup();
    // "not" is negation only as "not(": elsewhere it may be a field's name.
    if (isKeyword(token, 'not') && isPunctuation(this.peek(1), '(')) {
      this.advance();
      return { kind: 'not', operand: this.parseGroup(), position: token.position };
    }
    if (token.kind === 'word') return this.parseFieldPredicate();
    throw unexpected(token, "a field name, '(' or 'not('");
  }

  /** `( disjunction )`, one level deeper. */
  private parseGroup(): PredicateNode {
    const open = this.expectPunctuation('(', "'('");
    this.depth += 1;
    if (this.depth > MAX_NESTING_DEPTH) {
      throw new QueryError(PARAMETER, `Predicate nests deeper than ${MAX_NESTING_DEPTH} levels`, { position: open.position });
    }
    const inner = this.parseDisjunction();
    this.expectPunctuation(')', "'and', 'or' or ')'");
    this.depth -= 1;
    return inner;
  }

  private parseFieldPredicate(): FieldPredicateNode {
    const field = this.parseFieldPath();
    const position = field.position;
    const token = this.peek();
    if (isPunctuation(token, '(')) return { kind: 'nested', field, predicate: this.parseGroup(), position };
    if (token.kind === 'operator') {
      this.advance();
      return { kind: 'comparison', field, operator: token.operator, value: this.parseValue(), position };
    }
    if (this.acceptKeyword('in')) return { kind: 'in', field, negated: false, values: this.parseValueList(), position };
    if (this.acceptKeyword('not')) {
      this.expectKeyword('in');
      return { kind: 'in', field, negated: true, values: this.parseValueList(), position };
    }
    if (this.acceptKeyword('contains')) return this.parseContains(field);
    if (this.acceptKeyword('is')) return this.parseIs(field);
    throw unexpected(token, "an operator such as '=', 'in', 'contains' or 'is', or '(' to look inside the field");
  }

  private parseFieldPath(): FieldPath {
    const first = this.expectWord('a field name');
    const segments = [first.text];
    while (this.acceptPunctuation('.')) segments.push(this.expectWord("a field name after '.'").text);
    return { segments, position: first.position };
  }

  private parseContains(field: FieldPath): ContainsNode | ContainsSomeNode {
    const position = field.position;
    if (this.acceptKeyword('any')) return { kind: 'containsAny', field, values: this.parseValueList(), position };
    if (this.acceptKeyword('all')) return { kind: 'containsAll', field, values: this.parseValueList(), position };
    return { kind: 'contains', field, value: this.parseValue("'any', 'all' or a value"), position };
  }

  private parseIs(field: FieldPath): IsEmptyNode | IsDefinedNode {
    const position = field.position;
    const negated = this.acceptKeyword('not');
    if (this.acceptKeyword('empty')) return { kind: 'isEmpty', field, negated, position };
    if (this.acceptKeyword('defined')) return { kind: 'isDefined', field, negated, position };
    throw unexpected(this.peek(), negated ? "'empty' or 'defined'" : "'not', 'empty' or 'defined'");
  }

  /** `(v1, v2, ...)`, or a single `:variable` that may carry several values. */
  private parseValueList(): ValueNode[] {
    const token = this.peek();
    if (token.kind === 'variable') {
      this.advance();
      return [{ kind: 'variable', name: token.name, position: token.position }];
    }
    this.expectPunctuation('(', "'(' and a list of values, or a :variable");
    const values = [this.parseValue()];
    while (this.acceptPunctuation(',')) values.push(this.parseValue());
    this.expectPunctuation(')', "',' or ')'");
    return values;
  }

  private parseValue(expected = 'a value'): ValueNode {
    const token = this.peek();
    const value = valueOf(token);
    if (!value) throw unexpected(token, expected);
    this.advance();
    return value;
  }

  // --- token stream -------------------------------------------------------------------------

  private peek(ahead = 0): Token {
    // The stream always ends with an 'end' token, which is never consumed.
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  private advance(): void {
    if (this.peek().kind !== 'end') this.index += 1;
  }

  private acceptKeyword(keyword: string): boolean {
    const accepted = isKeyword(this.peek(), keyword);
    if (accepted) this.advance();
    return accepted;
  }

  private acceptPunctuation(punctuation: Punctuation): boolean {
    const accepted = isPunctuation(this.peek(), punctuation);
    if (accepted) this.advance();
    return accepted;
  }

  private expectKeyword(keyword: string): void {
    if (!this.acceptKeyword(keyword)) throw unexpected(this.peek(), `'${keyword}'`);
  }

  private expectPunctuation(punctuation: Punctuation, expected: string): Token {
    const token = this.peek();
    if (!isPunctuation(token, punctuation)) throw unexpected(token, expected);
    this.advance();
    return token;
  }

  private expectWord(expected: string): Token {
    const token = this.peek();
    if (token.kind !== 'word') throw unexpected(token, expected);
    this.advance();
    return token;
  }
}

function valueOf(token: Token): ValueNode | undefined {
  const { position } = token;
  switch (token.kind) {
    case 'string':
    case 'number':
      return { kind: 'literal', value: token.value, position };
    case 'variable':
      return { kind: 'variable', name: token.name, position };
    case 'word':
      if (isKeyword(token, 'true')) return { kind: 'literal', value: true, position };
      if (isKeyword(token, 'false')) return { kind: 'literal', value: false, position };
      return undefined;
    default:
      return undefined;
  }
}

function isKeyword(token: Token, keyword: string): boolean {
  return token.kind === 'word' && token.text.toLowerCase() === keyword;
}

function isPunctuation(token: Token, punctuation: Punctuation): boolean {
  return token.kind === 'punctuation' && token.text === punctuation;
}

const MAX_QUOTED_TOKEN = 40;

function unexpected(token: Token, expected: string): QueryError {
  const problem = token.kind === 'end' ? 'Unexpected end of input' : `Unexpected token '${abbreviate(token.text)}'`;
  return new QueryError(PARAMETER, problem, { position: token.position, expected });
}

function abbreviate(text: string): string {
  return text.length <= MAX_QUOTED_TOKEN ? text : `${text.slice(0, MAX_QUOTED_TOKEN)}...`;
}
