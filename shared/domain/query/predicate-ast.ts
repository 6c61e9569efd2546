/**
 * The syntax tree of a `where` predicate (https://docs.commercetools.com/api/predicates/query),
 * as predicate-parser.ts builds it and predicate-evaluator.ts compiles it. Every node records
 * the 1-based `column` where it starts.
 */

export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A field reference as written: `version`, or the dotted shorthand `objectTypeProperty.arrayOfIntExample`. */
export interface FieldPath {
  readonly segments: readonly string[];
  readonly column: number;
}

export interface LiteralValue {
  readonly kind: 'literal';
  readonly value: string | number | boolean;
  readonly column: number;
}

/** `:name`, bound to the query parameter `var.name` when the predicate is compiled. */
export interface VariableValue {
  readonly kind: 'variable';
  readonly name: string;
  readonly column: number;
}

export type ValueNode = LiteralValue | VariableValue;

export interface AndNode {
  readonly kind: 'and';
  readonly operands: readonly PredicateNode[];
  readonly column: number;
}

export interface OrNode {
  readonly kind: 'or';
  readonly operands: readonly PredicateNode[];
  readonly column: number;
}

export interface NotNode {
  readonly kind: 'not';
  readonly operand: PredicateNode;
  readonly column: number;
}

/** `field = value`; `<>` is read as `!=`. */
export interface ComparisonNode {
  readonly kind: 'comparison';
  readonly field: FieldPath;
  readonly operator: ComparisonOperator;
  readonly value: ValueNode;
  readonly column: number;
}

/** `field in (...)`, or `field not in (...)` when negated. */
export interface InNode {
  readonly kind: 'in';
  readonly field: FieldPath;
  readonly negated: boolean;
  readonly values: readonly ValueNode[];
  readonly column: number;
}

/** `field contains value`: the array holds that value. */
export interface ContainsNode {
  readonly kind: 'contains';
  readonly field: FieldPath;
  readonly value: ValueNode;
  readonly column: number;
}

/** `field contains any (...)` / `field contains all (...)`. */
export interface ContainsSomeNode {
  readonly kind: 'containsAny' | 'containsAll';
  readonly field: FieldPath;
  readonly values: readonly ValueNode[];
  readonly column: number;
}

/** `field is empty`, or `field is not empty` when negated. */
export interface IsEmptyNode {
  readonly kind: 'isEmpty';
  readonly field: FieldPath;
  readonly negated: boolean;
  readonly column: number;
}

/** `field is defined`, or `field is not defined` when negated. */
export interface IsDefinedNode {
  readonly kind: 'isDefined';
  readonly field: FieldPath;
  readonly negated: boolean;
  readonly column: number;
}

/** `field(predicate)`: the predicate applies inside an object field, or to any element of an array of objects. */
export interface NestedNode {
  readonly kind: 'nested';
  readonly field: FieldPath;
  readonly predicate: PredicateNode;
  readonly column: number;
}

export type FieldPredicateNode = ComparisonNode | InNode | ContainsNode | ContainsSomeNode | IsEmptyNode | IsDefinedNode | NestedNode;
export type PredicateNode = AndNode | OrNode | NotNode | FieldPredicateNode;
