/**
 * The syntax tree of a `where` predicate (https://docs.commercetools.com/api/predicates/query),
 * as predicate-parser.ts builds it and predicate-evaluator.ts compiles it. Field paths and values
 * record the 1-based `column` where they start; a field predicate is where its field is.
 */
import type { FieldPathSyntax } from '../language/field-path';

export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A field reference as written: `version`, or the dotted shorthand `objectTypeProperty.arrayOfIntExample`. */
export type FieldPath = FieldPathSyntax;

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

/** `a and b and c`, or `a or b or c`: one node for the chain, as it reads. */
export interface JunctionNode<Kind extends 'and' | 'or'> {
  readonly kind: Kind;
  readonly operands: readonly PredicateNode[];
}
export type AndNode = JunctionNode<'and'>;
export type OrNode = JunctionNode<'or'>;

export interface NotNode {
  readonly kind: 'not';
  readonly operand: PredicateNode;
}

interface OnField {
  readonly field: FieldPath;
}

/** `field = value`; `<>` is read as `!=`. */
export interface ComparisonNode extends OnField {
  readonly kind: 'comparison';
  readonly operator: ComparisonOperator;
  readonly value: ValueNode;
}

/** `field in (...)`, or `field not in (...)` when negated. */
export interface InNode extends OnField {
  readonly kind: 'in';
  readonly negated: boolean;
  readonly values: readonly ValueNode[];
}

/** `field contains value`: the array holds that value. */
export interface ContainsNode extends OnField {
  readonly kind: 'contains';
  readonly value: ValueNode;
}

/** `field contains any (...)` / `field contains all (...)`. */
export interface ContainsSomeNode extends OnField {
  readonly kind: 'containsAny' | 'containsAll';
  readonly values: readonly ValueNode[];
}

/** `field is empty` / `field is defined`, or `is not ...` when negated. */
export interface IsNode<Kind extends 'isEmpty' | 'isDefined'> extends OnField {
  readonly kind: Kind;
  readonly negated: boolean;
}
export type IsEmptyNode = IsNode<'isEmpty'>;
export type IsDefinedNode = IsNode<'isDefined'>;

/** `field(predicate)`: the predicate applies inside an object field, or to any element of an array of objects. */
export interface NestedNode extends OnField {
  readonly kind: 'nested';
  readonly predicate: PredicateNode;
}

export type FieldPredicateNode = ComparisonNode | InNode | ContainsNode | ContainsSomeNode | IsEmptyNode | IsDefinedNode | NestedNode;
export type PredicateNode = AndNode | OrNode | NotNode | FieldPredicateNode;
