/** Filter and facet expressions as expression-parser.ts reads them: syntax only; whether the field exists and the values fit it is checked when they are compiled. */

/** One expression as the request gave it, with the parameter it came in, for error messages. */
export interface ExpressionSource {
  parameter: string;
  text: string;
}

export type Scalar = number | string;

/** A range end; undefined is `*`, an open end. */
export type Bound = { value: Scalar; text: string } | undefined;

export interface TermItem {
  kind: 'term';
  value: Scalar;
  text: string;
  column: number;
}

export interface RangeItem {
  kind: 'range';
  from: Bound;
  to: Bound;
  text: string;
  column: number;
}

export type ValueItem = TermItem | RangeItem;

export type Condition = { kind: 'exists' } | { kind: 'missing' } | { kind: 'values'; items: ValueItem[] };

export interface FieldReference {
  path: string;
  /** 1-based, as the error messages count. */
  column: number;
}

export interface FilterExpression {
  source: ExpressionSource;
  field: FieldReference;
  condition: Condition;
}

export interface FacetExpression {
  source: ExpressionSource;
  field: FieldReference;
  /** Absent for a term facet (`facet=<field>`). */
  condition: Condition | undefined;
  alias: string | undefined;
}
