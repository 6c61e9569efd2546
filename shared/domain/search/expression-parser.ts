/**
 * The grammar of filter and facet expressions (commercetools product search syntax), read by
 * recursive descent: one function per rule.
 *
 *   filter     := fieldPath ':' condition
 *   facet      := fieldPath [':' condition] ['as' name]
 *   fieldPath  := word ('.' word)*
 *   condition  := 'exists' | 'missing' | item (',' item)*
 *   item       := number | string | ['range'] '(' bound 'to' bound ')'
 *   bound      := number | string | '*'
 *
 * Keywords are case-sensitive, as in commercetools.
 */
import { fieldPathFrom } from '../language/field-path';
import { TokenCursor } from '../language/token-cursor';
import type { Bound, Condition, ExpressionSource, FacetExpression, FieldReference, FilterExpression, RangeItem, ValueItem } from './expression-ast';
import { readExpressionToken, type ExpressionKind, type ExpressionToken } from './expression-lexer';
import { syntaxError } from './search-error';

export function parseFilterExpression(source: ExpressionSource): FilterExpression {
  const tokens = cursorOver(source);
  const field = fieldReference(tokens);
  const condition = conditionAfterColon(tokens);
  tokens.expect('end', whatMayFollow(condition, { alias: false }));
  return { source, field, condition };
}

export function parseFacetExpression(source: ExpressionSource): FacetExpression {
  const tokens = cursorOver(source);
  const field = fieldReference(tokens);
  const condition = tokens.peek().kind === ':' ? conditionAfterColon(tokens) : undefined;
  const alias = tokens.acceptKeyword('as') ? tokens.expect('word', "a facet name after 'as'").text : undefined;
  tokens.expect('end', alias === undefined ? whatMayFollow(condition, { alias: true }) : 'the end of the expression');
  return { source, field, condition, alias };
}

type Tokens = TokenCursor<ExpressionKind>;

/** For error messages: what could have come instead of the token found after an expression. */
function whatMayFollow(condition: Condition | undefined, allows: { alias: boolean }): string {
  const continuations = [...(condition === undefined ? ["':'"] : condition.kind === 'values' ? ["','"] : []), ...(allows.alias ? ["'as'"] : [])];
  const end = 'the end of the expression';
  return continuations.length === 0 ? end : `${continuations.join(', ')} or ${end}`;
}

function fieldReference(tokens: Tokens): FieldReference {
  const path = fieldPathFrom(tokens.expect('word', 'a field name'), tokens);
  return { path: path.segments.join('.'), column: path.column };
}

function conditionAfterColon(tokens: Tokens): Condition {
  tokens.expect(':', "':'");
  if (tokens.acceptKeyword('exists')) return { kind: 'exists' };
  if (tokens.acceptKeyword('missing')) return { kind: 'missing' };
  const items = [item(tokens)];
  while (tokens.accept(',')) items.push(item(tokens));
  return { kind: 'values', items };
}

function item(tokens: Tokens): ValueItem {
  const term = tokens.accept('number') ?? tokens.accept('string');
  if (term) return { kind: 'term', value: term.value, text: term.text, column: term.column };
  const range = tokens.acceptKeyword('range');
  if (range) {
    tokens.expect('(', "'('");
    return rangeFrom(range, tokens);
  }
  // commercetools lists further ranges without repeating the keyword: `range (1 to 5), (7 to 9)`
  const open = tokens.accept('(');
  if (open) return rangeFrom(open, tokens);
  return tokens.fail('a number, a "quoted string", range(from to to), exists or missing');
}

/** The rest of a range after its `(`; `start` (`range` or the `(`) is where the range's text begins. */
function rangeFrom(start: ExpressionToken, tokens: Tokens): RangeItem {
  const from = bound(tokens);
  tokens.expectKeyword('to', "'to'");
  const to = bound(tokens);
  const close = tokens.expect(')', "')'");
  return { kind: 'range', from, to, text: tokens.textBetween(start, close), column: start.column };
}

function bound(tokens: Tokens): Bound {
  const end = tokens.accept('number') ?? tokens.accept('string');
  if (end) return { value: end.value, text: end.text };
  if (tokens.accept('*')) return undefined;
  return tokens.fail('a number, a "quoted string" or * for an open end');
}

/** Errors point at 1-based columns of the expression and name the parameter it came in. */
function cursorOver(source: ExpressionSource): Tokens {
  return new TokenCursor(source.text, {
    readToken: (_text, offset) => readExpressionToken(source, offset),
    keywordsIgnoreCase: false,
    unexpected(token, expected) {
      const found = token.kind === 'end' ? 'the end of the expression' : `'${token.text}'`;
      return syntaxError(source, `Expected ${expected} but found ${found}`, token.column);
    },
  });
}
