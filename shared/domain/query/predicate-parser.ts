/**
 * The grammar of commercetools query predicates (https://docs.commercetools.com/api/predicates/query),
 * as rules for the shared Pratt parser. It knows nothing of the resource's fields; the evaluator
 * checks names and types against the field schema.
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
 * In Pratt terms: `operandRules` hold the operands (prefix) and `and`/`or` (infix, n-ary);
 * `fieldOperatorRules` hold the operators one of which must follow a field path; values and
 * value lists are prefix tables of their own. Keywords are case-insensitive and only keywords
 * where a table has a rule for them, so a field may well be called "key" or "empty".
 */
import { leadingText } from '../abbreviate';
import { MAX_PREDICATE_LENGTH } from '../limits';
import { fieldPathFrom } from '../language/field-path';
import { PrattParser, PrattRules, type Language } from '../language/pratt-parser';
import type { SyntaxErrors } from '../language/token';
import type { FieldPath, FieldPredicateNode, LiteralValue, PredicateNode, ValueNode, VariableValue } from './predicate-ast';
import { predicateLexer, type PredicateToken } from './predicate-lexer';
import { QueryError } from './query-error';

// The syntax tree used to be declared here; importers of these names keep working.
export type * from './predicate-ast';

export { MAX_PREDICATE_LENGTH };
/** Groups, not(...) and nested field predicates deeper than this are refused: parsing and the
 * compiled predicate recurse once per level. */
export const MAX_NESTING_DEPTH = 32;

const PARAMETER = 'where';

/** Parses one `where` parameter. Throws QueryError saying where the input stops making sense. */
export function parsePredicate(source: string): PredicateNode {
  if (source.length > MAX_PREDICATE_LENGTH) {
    throw new QueryError(PARAMETER, `Predicate is ${source.length} characters long, more than the ${MAX_PREDICATE_LENGTH} allowed`);
  }
  const parser = new PrattParser(source, predicateLexer, PREDICATE_LANGUAGE);
  const predicate = parser.parse(operandRules, EXPECTED_OPERAND);
  parser.expectEnd("'and', 'or' or the end of the predicate");
  return predicate;
}

// --- operands, `and` and `or` -----------------------------------------------------------------

type Parser = PrattParser<PredicateToken>;

const EXPECTED_OPERAND = "a field name, '(' or 'not('";
/** Binding powers: `and` binds tighter than `or`. */
const OR = 10;
const AND = 20;

const operandRules: PrattRules<PredicateToken, PredicateNode> = new PrattRules<PredicateToken, PredicateNode>()
  .prefix('(', (open, parser) => group(open, parser))
  // "not" is negation only as "not(": elsewhere it may be a field's name.
  .prefixKeyword('not', (not, parser) =>
    parser.isAt('(')
      ? { kind: 'not', operand: group(parser.advance(), parser), position: not.offset }
      : fieldPredicate(not, parser),
  )
  .prefix('word', (word, parser) => fieldPredicate(word, parser))
  .infixKeyword('or', OR, (left, _or, parser) => junction('or', OR, left, parser))
  .infixKeyword('and', AND, (left, _and, parser) => junction('and', AND, left, parser));

/** `a or b or c` is one node with three operands, as it reads; parentheses keep their own node. */
function junction(kind: 'and' | 'or', bindingPower: number, first: PredicateNode, parser: Parser): PredicateNode {
  const operands = [first, parser.parse(operandRules, EXPECTED_OPERAND, bindingPower)];
  while (parser.acceptKeyword(kind)) operands.push(parser.parse(operandRules, EXPECTED_OPERAND, bindingPower));
  return { kind, operands, position: first.position };
}

/** `( disjunction )` from its opened parenthesis on, one level deeper. */
function group(open: PredicateToken, parser: Parser): PredicateNode {
  return parser.nested(open, () => {
    const inner = parser.parse(operandRules, EXPECTED_OPERAND);
    parser.expect(')', "'and', 'or' or ')'");
    return inner;
  });
}

// --- field predicates ---------------------------------------------------------------------------

/** A field path takes exactly one of these (`parser.operator`); they bind tighter than `and` and `or`. */
const FIELD_OPERATOR = 30;

function fieldPredicate(first: PredicateToken, parser: Parser): FieldPredicateNode {
  const path = fieldPathFrom(first, parser);
  const field: FieldPath = { segments: path.segments, position: path.offset };
  return parser.operator(fieldOperatorRules, field, "an operator such as '=', 'in', 'contains' or 'is', or '(' to look inside the field");
}

const fieldOperatorRules = new PrattRules<PredicateToken, FieldPredicateNode, FieldPath>()
  .infix('(', FIELD_OPERATOR, (field, open, parser) => ({
    kind: 'nested',
    field,
    predicate: group(open, parser),
    position: field.position,
  }))
  .infix('operator', FIELD_OPERATOR, (field, operator, parser) => ({
    kind: 'comparison',
    field,
    operator: operator.value,
    value: value(parser),
    position: field.position,
  }))
  .infixKeyword('in', FIELD_OPERATOR, (field, _in, parser) => ({
    kind: 'in',
    field,
    negated: false,
    values: valueList(parser),
    position: field.position,
  }))
  .infixKeyword('not', FIELD_OPERATOR, (field, _not, parser) => {
    parser.expectKeyword('in', "'in'");
    return { kind: 'in', field, negated: true, values: valueList(parser), position: field.position };
  })
  .infixKeyword('contains', FIELD_OPERATOR, (field, _contains, parser) => {
    const position = field.position;
    if (parser.acceptKeyword('any')) return { kind: 'containsAny', field, values: valueList(parser), position };
    if (parser.acceptKeyword('all')) return { kind: 'containsAll', field, values: valueList(parser), position };
    return { kind: 'contains', field, value: value(parser, "'any', 'all' or a value"), position };
  })
  .infixKeyword('is', FIELD_OPERATOR, (field, _is, parser) => {
    const position = field.position;
    const negated = parser.acceptKeyword('not') !== undefined;
    if (parser.acceptKeyword('empty')) return { kind: 'isEmpty', field, negated, position };
    if (parser.acceptKeyword('defined')) return { kind: 'isDefined', field, negated, position };
    throw parser.unexpected(parser.peek(), negated ? "'empty' or 'defined'" : "'not', 'empty' or 'defined'");
  });

// --- values -------------------------------------------------------------------------------------

const valueRules = new PrattRules<PredicateToken, ValueNode>()
  .prefix('string', (token) => literal(token.value, token))
  .prefix('number', (token) => literal(token.value, token))
  .prefixKeyword('true', (token) => literal(true, token))
  .prefixKeyword('false', (token) => literal(false, token))
  .prefix('variable', (token) => variable(token.value, token));

/** `(v1, v2, ...)`, or a single `:variable` that may carry several values. */
const valueListRules = new PrattRules<PredicateToken, ValueNode[]>()
  .prefix('(', (_open, parser) => {
    const values = parser.separated(',', () => value(parser));
    parser.expect(')', "',' or ')'");
    return values;
  })
  .prefix('variable', (token) => [variable(token.value, token)]);

function value(parser: Parser, expected = 'a value'): ValueNode {
  return parser.parse(valueRules, expected);
}

function valueList(parser: Parser): ValueNode[] {
  return parser.parse(valueListRules, "'(' and a list of values, or a :variable");
}

function literal(value: LiteralValue['value'], token: PredicateToken): LiteralValue {
  return { kind: 'literal', value, position: token.offset };
}

function variable(name: string, token: PredicateToken): VariableValue {
  return { kind: 'variable', name, position: token.offset };
}

// --- the language -------------------------------------------------------------------------------

const MAX_QUOTED_TOKEN = 40;

const SYNTAX_ERRORS: SyntaxErrors<PredicateToken> = {
  at: (problem, position, expected) => new QueryError(PARAMETER, problem, { position, expected }),
  unexpected(token, expected) {
    const problem = token.type === 'end' ? 'Unexpected end of input' : `Unexpected token '${abbreviate(token.text)}'`;
    return new QueryError(PARAMETER, problem, { position: token.offset, expected });
  },
};

const PREDICATE_LANGUAGE: Language<PredicateToken> = {
  errors: SYNTAX_ERRORS,
  keywordOf: (token) => (token.type === 'word' ? token.text.toLowerCase() : undefined),
  nesting: {
    maxDepth: MAX_NESTING_DEPTH,
    tooDeep: (open) => new QueryError(PARAMETER, `Predicate nests deeper than ${MAX_NESTING_DEPTH} levels`, { position: open.offset }),
  },
};

function abbreviate(text: string): string {
  return text.length <= MAX_QUOTED_TOKEN ? text : `${leadingText(text, MAX_QUOTED_TOKEN)}...`;
}
