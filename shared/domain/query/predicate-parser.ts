/**
 * The grammar of commercetools query predicates (https://docs.commercetools.com/api/predicates/query),
 * read by recursive descent: one function per rule. It knows nothing of the resource's fields;
 * the evaluator checks names and types against them.
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
 * Keywords are case-insensitive, and only keywords where the grammar asks for them, so a field
 * may well be called "key", "empty" or "not".
 */
import { fieldPathFrom } from '../language/field-path';
import type { TokenCursor } from '../language/token-cursor';
import { MAX_PREDICATE_LENGTH } from '../limits';
import type { ComparisonOperator, FieldPredicateNode, LiteralValue, PredicateNode, ValueNode } from './predicate-ast';
import { predicateTokens, type PredicateKind, type PredicateToken } from './predicate-lexer';
import { queryError } from './query-error';

export { MAX_PREDICATE_LENGTH };
/** Groups, not(...) and nested field predicates deeper than this are refused: parsing and the
 * compiled predicate recurse once per level. */
export const MAX_NESTING_DEPTH = 32;

type Tokens = TokenCursor<PredicateKind>;

/** Parses one `where` parameter. Throws a ParameterError saying where the input stops making sense. */
export function parsePredicate(source: string): PredicateNode {
  if (source.length > MAX_PREDICATE_LENGTH) {
    throw queryError('where', `Predicate is ${source.length} characters long, more than the ${MAX_PREDICATE_LENGTH} allowed`);
  }
  const tokens = predicateTokens('where', source);
  const predicate = disjunction(tokens, 0);
  tokens.expect('end', "'and', 'or' or the end of the predicate");
  return predicate;
}

/** `a or b or c` is one node with three operands, as it reads; parentheses keep their own node. */
function disjunction(tokens: Tokens, depth: number): PredicateNode {
  const operands = [conjunction(tokens, depth)];
  while (tokens.acceptKeyword('or')) operands.push(conjunction(tokens, depth));
  return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
}

function conjunction(tokens: Tokens, depth: number): PredicateNode {
  const operands = [operand(tokens, depth)];
  while (tokens.acceptKeyword('and')) operands.push(operand(tokens, depth));
  return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
}

function operand(tokens: Tokens, depth: number): PredicateNode {
  const open = tokens.accept('(');
  if (open) return group(open, tokens, depth);
  const first = tokens.expect('word', "a field name, '(' or 'not('");
  // "not" is negation only as "not(": elsewhere it may be a field's name.
  const negated = first.text.toLowerCase() === 'not' ? tokens.accept('(') : undefined;
  if (negated) return { kind: 'not', operand: group(negated, tokens, depth) };
  return fieldPredicate(first, tokens, depth);
}

/** `"(" disjunction ")"` from its opened parenthesis on, one level deeper. */
function group(open: PredicateToken, tokens: Tokens, depth: number): PredicateNode {
  if (depth >= MAX_NESTING_DEPTH) {
    throw queryError('where', `Predicate nests deeper than ${MAX_NESTING_DEPTH} levels`, { column: open.column });
  }
  const inner = disjunction(tokens, depth + 1);
  tokens.expect(')', "'and', 'or' or ')'");
  return inner;
}

function fieldPredicate(first: PredicateToken, tokens: Tokens, depth: number): FieldPredicateNode {
  const field = fieldPathFrom(first, tokens);
  const open = tokens.accept('(');
  if (open) return { kind: 'nested', field, predicate: group(open, tokens, depth) };
  const operator = tokens.accept('operator');
  if (operator) return { kind: 'comparison', field, operator: operator.value as ComparisonOperator, value: value(tokens) };
  if (tokens.acceptKeyword('in')) return { kind: 'in', field, negated: false, values: valueList(tokens) };
  if (tokens.acceptKeyword('not')) {
    tokens.expectKeyword('in', "'in'");
    return { kind: 'in', field, negated: true, values: valueList(tokens) };
  }
  if (tokens.acceptKeyword('contains')) {
    if (tokens.acceptKeyword('any')) return { kind: 'containsAny', field, values: valueList(tokens) };
    if (tokens.acceptKeyword('all')) return { kind: 'containsAll', field, values: valueList(tokens) };
    return { kind: 'contains', field, value: value(tokens, "'any', 'all' or a value") };
  }
  if (tokens.acceptKeyword('is')) {
    const negated = tokens.acceptKeyword('not') !== undefined;
    if (tokens.acceptKeyword('empty')) return { kind: 'isEmpty', field, negated };
    if (tokens.acceptKeyword('defined')) return { kind: 'isDefined', field, negated };
    return tokens.fail(negated ? "'empty' or 'defined'" : "'not', 'empty' or 'defined'");
  }
  return tokens.fail("an operator such as '=', 'in', 'contains' or 'is', or '(' to look inside the field");
}

/** `(v1, v2, ...)`, or a single `:variable` that may carry several values. */
function valueList(tokens: Tokens): ValueNode[] {
  const variable = tokens.accept('variable');
  if (variable) return [variableOf(variable)];
  tokens.expect('(', "'(' and a list of values, or a :variable");
  const values = [value(tokens)];
  while (tokens.accept(',')) values.push(value(tokens));
  tokens.expect(')', "',' or ')'");
  return values;
}

function value(tokens: Tokens, expected = 'a value'): ValueNode {
  const literal = tokens.accept('string') ?? tokens.accept('number');
  if (literal) return literalOf(literal.value, literal);
  const variable = tokens.accept('variable');
  if (variable) return variableOf(variable);
  const truth = tokens.acceptKeyword('true') ?? tokens.acceptKeyword('false');
  if (truth) return literalOf(truth.text.toLowerCase() === 'true', truth);
  return tokens.fail(expected);
}

function literalOf(value: LiteralValue['value'], token: PredicateToken): LiteralValue {
  return { kind: 'literal', value, column: token.column };
}

function variableOf(token: PredicateToken): ValueNode {
  return { kind: 'variable', name: token.text.slice(1), column: token.column };
}
