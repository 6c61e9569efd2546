import type { Condition, ExpressionSource, FieldReference, FilterExpression, Scalar, ValueItem } from './expression-ast';
import type { Field, FieldCatalog, FieldKind } from './field-catalog';
import { malformedParameter, syntaxError } from './search-error';
import type { FieldFilter } from './search-request';

/**
 * Filter expressions, e.g. `objectTypeProperty.arrayOfIntExample:1,range(5 to *)`: a resource
 * passes when any of its values at the field matches any of the listed values or ranges.
 * Ranges include both ends, as commercetools filter ranges do.
 */
export function checkFilter(expression: FilterExpression, fields: FieldCatalog): FieldFilter {
  const field = resolveField(expression.field, fields, expression.source);
  checkCondition(expression.condition, field, expression.source);
  return { field, condition: expression.condition };
}

export function resolveField(reference: FieldReference, fields: FieldCatalog, source: ExpressionSource): Field {
  const field = fields.lookup(reference.path);
  if (!field) throw malformedParameter(source.parameter, `Unknown field '${reference.path}'.`);
  return field;
}

/** Refuses values that cannot match: text for a number field, numbers for a text field, empty ranges. */
export function checkCondition(condition: Condition, field: Field, source: ExpressionSource): void {
  if (condition.kind !== 'values') return;
  if (field.kind === 'other') {
    throw malformedParameter(
      source.parameter,
      `The field '${field.path}' holds no numbers or text, so only exists and missing apply to it.`,
    );
  }
  for (const item of condition.items) checkItem(item, field, source);
}

function checkItem(item: ValueItem, field: Field, source: ExpressionSource): void {
  const scalars = item.kind === 'term' ? [item] : [item.from, item.to].filter((bound) => bound !== undefined);
  for (const scalar of scalars) {
    if (!isOfKind(scalar.value, field.kind)) {
      const detail = `The field '${field.path}' holds ${KIND_NOUNS[field.kind]}, so expected ${EXPECTED_VALUES[field.kind]} but found ${scalar.text}`;
      throw syntaxError(source, detail, item.column);
    }
  }
  if (item.kind === 'range' && item.from && item.to && item.from.value > item.to.value) {
    throw syntaxError(source, `The lower end of ${item.text} is above its upper end`, item.column);
  }
}

const KIND_NOUNS: Record<FieldKind, string> = { number: 'numbers', text: 'text', other: 'no numbers or text' };
const EXPECTED_VALUES: Record<FieldKind, string> = {
  number: 'a number',
  text: 'a "quoted string"',
  other: 'exists or missing',
};

/** Whether a document value is a number of a number field or a string of a text field. */
export function isOfKind(value: unknown, kind: FieldKind): value is Scalar {
  return (kind === 'number' && typeof value === 'number') || (kind === 'text' && typeof value === 'string');
}
