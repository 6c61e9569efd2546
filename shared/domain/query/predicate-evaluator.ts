/**
 * Compiles parsed predicates against the resource's field schema into plain functions on
 * documents. All checking happens once, at compile time: unknown fields, operators that do not
 * fit the field, values of the wrong type and unknown input variables are ParameterErrors before
 * any document is looked at.
 *
 * Matching rules (commercetools behaviour where it has one):
 * - An operator on an array of scalars holds when it holds for any element
 *   (`arrayOfIntExample = 2`, `arrayOfIntExample in (1, 2)`, `arrayOfIntExample > 5`).
 * - A nested predicate on an array of objects holds when any element matches it.
 * - A comparison with an absent value is false, also for `!=` and `not in`; `is not defined` is true.
 * - An absent array counts as empty; an absent object as an object without fields.
 */
import { leadingText } from '../abbreviate.js';
import type { DocumentPredicate } from '../language/document-predicate.js';
import type { FieldModel, ObjectFieldModel, ScalarKind } from '../language/field-model.js';
import { describeField, describeValues, fieldNamed, isScalar, objectWithin } from './field-schema.js';
import { type Comparable, comparableValue, compareValues, instantOf, isObject, isPresent, propertyOf } from './field-values.js';
import {
  type ComparisonNode,
  type ComparisonOperator,
  type ContainsNode,
  type ContainsSomeNode,
  type FieldPredicateNode,
  type InNode,
  type IsEmptyNode,
  type LiteralValue,
  type PredicateNode,
  type ValueNode,
  type VariableValue,
} from './predicate-ast.js';
import { parsePredicate } from './predicate-parser.js';
import { queryError } from './query-error.js';

/** Input variables by name (without the `var.` prefix), each with the values of its query parameters. */
export type PredicateVariables = Readonly<Record<string, readonly string[]>>;

export interface PredicateOptions {
  readonly schema: ObjectFieldModel;
  readonly variables: PredicateVariables;
}

/** Parses and compiles all `where` parameters of a request; a document must match every one. */
export function compilePredicates(wheres: readonly string[], options: PredicateOptions): DocumentPredicate {
  const predicates = wheres.map((where) => compilePredicate(parsePredicate(where), options));
  return (doc) => predicates.every((matches) => matches(doc));
}

/** Compiles one parsed predicate. */
export function compilePredicate(predicate: PredicateNode, options: PredicateOptions): DocumentPredicate {
  const root: Scope = { schema: options.schema, path: [] };
  return new PredicateCompiler(options.variables).compile(predicate, root);
}

/** Tests an object: the document itself, or an object nested in it. */
type Matcher = (target: unknown) => boolean;
/** Tests one field's value, which is undefined when the field is absent. */
type ValueTest = (value: unknown) => boolean;

/** The object whose fields a predicate names, and where it sits in the document. */
interface Scope {
  readonly schema: ObjectFieldModel;
  readonly path: readonly string[];
}

/** A field a predicate names, with its full path and the column of its predicate, for messages. */
interface ResolvedField {
  readonly name: string;
  readonly path: readonly string[];
  readonly schema: FieldModel;
  readonly column: number;
}

/** What an operator compares: values of `kind`, held directly or as the elements of an array. */
interface ScalarOperand {
  readonly kind: ScalarKind;
  readonly isArray: boolean;
}

const ORDER_TESTS: Readonly<Record<ComparisonOperator, (order: number) => boolean>> = {
  '=': (order) => order === 0,
  '!=': (order) => order !== 0,
  '<': (order) => order < 0,
  '<=': (order) => order <= 0,
  '>': (order) => order > 0,
  '>=': (order) => order >= 0,
};

const NO_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({});

class PredicateCompiler {
  private readonly variables: PredicateVariables;

  constructor(variables: PredicateVariables) {
    this.variables = variables;
  }

  compile(node: PredicateNode, scope: Scope): Matcher {
    switch (node.kind) {
      case 'and': {
        const operands = node.operands.map((operand) => this.compile(operand, scope));
        return (target) => operands.every((matches) => matches(target));
      }
      case 'or': {
        const operands = node.operands.map((operand) => this.compile(operand, scope));
        return (target) => operands.some((matches) => matches(target));
      }
      case 'not': {
        const operand = this.compile(node.operand, scope);
        return (target) => !operand(target);
      }
      case 'nested':
      case 'comparison':
      case 'in':
      case 'contains':
      case 'containsAny':
      case 'containsAll':
      case 'isEmpty':
      case 'isDefined':
        return this.compileAlongPath(node, node.field.segments, scope);
      default:
        return node satisfies never;
    }
  }

  /** Walks the field path one name at a time: `a.b.c = 1` compiles exactly like `a(b(c = 1))`. */
  private compileAlongPath(node: FieldPredicateNode, segments: readonly string[], scope: Scope): Matcher {
    const [name = '', ...rest] = segments;
    const field = resolveField(scope, name, node.field.column);
    const test =
      rest.length === 0
        ? this.compileTest(node, field)
        : this.nestedTest(field, (inner) => this.compileAlongPath(node, rest, inner));
    return (target) => test(propertyOf(target, name));
  }

  private compileTest(node: FieldPredicateNode, field: ResolvedField): ValueTest {
    switch (node.kind) {
      case 'nested':
        return this.nestedTest(field, (inner) => this.compile(node.predicate, inner));
      case 'comparison':
        return this.comparisonTest(node, field);
      case 'in':
        return this.membershipTest(node, field);
      case 'contains':
      case 'containsAny':
      case 'containsAll':
        return this.containsTest(node, field);
      case 'isEmpty':
        return emptinessTest(node, field);
      case 'isDefined':
        return (value) => isPresent(value) !== node.negated;
      default:
        return node satisfies never;
    }
  }

  private nestedTest(field: ResolvedField, compileInner: (scope: Scope) => Matcher): ValueTest {
    const objectSchema = objectWithin(field.schema);
    if (!objectSchema) throw refusal(field, `Field '${pathOf(field)}' is ${describeField(field.schema)}, which has no fields to look into`);
    const inner = compileInner({ schema: objectSchema, path: field.path });
    if (field.schema.kind === 'array') return (value) => Array.isArray(value) && value.some(inner);
    return (value) => inner(isObject(value) ? value : NO_FIELDS);
  }

  private comparisonTest(node: ComparisonNode, field: ResolvedField): ValueTest {
    const label = `'${node.operator}'`;
    const operand = scalarOperand(field, label);
    if (operand.kind === 'boolean' && node.operator !== '=' && node.operator !== '!=') {
      throw refusal(field, `Operator ${label} does not apply to '${pathOf(field)}', which holds booleans`, "'=' or '!='");
    }
    const expected = this.singleValue(node.value, field, operand.kind, label);
    const holds = ORDER_TESTS[node.operator];
    return forAnyElementIf(operand.isArray, (raw) => {
      const actual = comparableValue(operand.kind, raw);
      return actual !== undefined && holds(compareValues(actual, expected));
    });
  }

  private membershipTest(node: InNode, field: ResolvedField): ValueTest {
    const operand = scalarOperand(field, node.negated ? "'not in'" : "'in'");
    const candidates = new Set(this.valueList(node.values, field, operand.kind));
    return forAnyElementIf(operand.isArray, (raw) => {
      const actual = comparableValue(operand.kind, raw);
      return actual !== undefined && candidates.has(actual) !== node.negated;
    });
  }

  private containsTest(node: ContainsNode | ContainsSomeNode, field: ResolvedField): ValueTest {
    const label = CONTAINS_LABELS[node.kind];
    const itemKind = arrayItemKind(field, label);
    const wanted =
      node.kind === 'contains' ? [this.singleValue(node.value, field, itemKind, label)] : this.valueList(node.values, field, itemKind);
    const requireAll = node.kind === 'containsAll';
    return (value) => {
      if (!Array.isArray(value)) return false;
      const present = new Set(value.map((raw) => comparableValue(itemKind, raw)));
      return requireAll ? wanted.every((item) => present.has(item)) : wanted.some((item) => present.has(item));
    };
  }

  // --- values -------------------------------------------------------------------------------

  /** The one value an operator such as '=' compares with; a variable used there must have exactly one. */
  private singleValue(value: ValueNode, field: ResolvedField, kind: ScalarKind, operator: string): Comparable {
    if (value.kind === 'literal') return literalAs(kind, value, field);
    const texts = this.variableValues(value);
    if (texts.length !== 1) {
      throw queryError('where', `Variable ':${value.name}' has ${texts.length} values, but ${operator} takes one`, {
        column: value.column,
      });
    }
    return variableAs(kind, texts[0] ?? '', value, field);
  }

  private valueList(values: readonly ValueNode[], field: ResolvedField, kind: ScalarKind): Comparable[] {
    return values.flatMap((value) => this.resolveValue(value, field, kind));
  }

  private resolveValue(value: ValueNode, field: ResolvedField, kind: ScalarKind): Comparable[] {
    if (value.kind === 'literal') return [literalAs(kind, value, field)];
    return this.variableValues(value).map((text) => variableAs(kind, text, value, field));
  }

  private variableValues(variable: VariableValue): readonly string[] {
    const values = Object.hasOwn(this.variables, variable.name) ? this.variables[variable.name] : undefined;
    if (!values || values.length === 0) {
      // Query parameters name variables with letters and digits only (`var.[a-zA-Z0-9]+`).
      const nameable = /^[a-zA-Z0-9]+$/.test(variable.name);
      throw queryError('where', `Unknown variable ':${variable.name}'`, {
        column: variable.column,
        expected: nameable
          ? `a query parameter 'var.${variable.name}' giving its value`
          : 'a variable named with letters and digits only, as query parameters var.<name> are',
      });
    }
    return values;
  }
}

const CONTAINS_LABELS: Readonly<Record<(ContainsNode | ContainsSomeNode)['kind'], string>> = {
  contains: "'contains'",
  containsAny: "'contains any'",
  containsAll: "'contains all'",
};

function resolveField(scope: Scope, name: string, column: number): ResolvedField {
  const path = [...scope.path, name];
  const schema = fieldNamed(scope.schema, name);
  if (!schema) throw queryError('where', `Unknown field '${path.join('.')}'`, { column });
  return { name, path, schema, column };
}

function pathOf(field: ResolvedField): string {
  return field.path.join('.');
}

/** A predicate on `field` that does not fit it; the message points at the predicate's field. */
function refusal(field: ResolvedField, problem: string, expected?: string): Error {
  return queryError('where', problem, { column: field.column, expected });
}

/** `is empty` is about arrays; an absent array has no elements, so it is empty. */
function emptinessTest(node: IsEmptyNode, field: ResolvedField): ValueTest {
  if (field.schema.kind !== 'array') {
    const label = node.negated ? "'is not empty'" : "'is empty'";
    throw refusal(field, `Operator ${label} needs an array, but '${pathOf(field)}' is ${describeField(field.schema)}`);
  }
  return (value) => (!Array.isArray(value) || value.length === 0) !== node.negated;
}

function scalarOperand(field: ResolvedField, operator: string): ScalarOperand {
  const { schema } = field;
  if (isScalar(schema)) return { kind: schema.kind, isArray: false };
  if (schema.kind === 'array' && isScalar(schema.items)) return { kind: schema.items.kind, isArray: true };
  const lookInside = objectWithin(schema) ? `'${field.name}(...)' to look inside it` : undefined;
  throw refusal(field, `Operator ${operator} compares values, but '${pathOf(field)}' is ${describeField(schema)}`, lookInside);
}

function arrayItemKind(field: ResolvedField, operator: string): ScalarKind {
  const { schema } = field;
  if (schema.kind === 'array' && isScalar(schema.items)) return schema.items.kind;
  throw refusal(field, `Operator ${operator} needs an array of values, but '${pathOf(field)}' is ${describeField(schema)}`);
}

function forAnyElementIf(isArray: boolean, test: ValueTest): ValueTest {
  return isArray ? (value) => Array.isArray(value) && value.some(test) : test;
}

// --- typing values ----------------------------------------------------------------------------

const LITERAL_TYPES: Readonly<Record<string, string>> = { string: 'a string', number: 'a number', boolean: 'a boolean' };

/** A literal as a Comparable of the field's kind; date-time fields take ISO 8601 strings. */
function literalAs(kind: ScalarKind, literal: LiteralValue, field: ResolvedField): Comparable {
  const { value, column } = literal;
  if (kind === 'datetime' && typeof value === 'string') {
    const instant = instantOf(value);
    if (instant === undefined) {
      throw queryError('where', `${describeLiteral(value)} is not an ISO 8601 date-time, as field '${pathOf(field)}' requires`, {
        column,
      });
    }
    return instant;
  }
  if (typeof value === kind) return value;
  throw queryError(
    'where',
    `Type mismatch: '${pathOf(field)}' holds ${describeValues({ kind })}, but ${describeLiteral(value)} is ${LITERAL_TYPES[typeof value]}`,
    { column },
  );
}

/** The number syntax of predicates; Number() alone would also take "0x1f", " " and "Infinity". */
const DECIMAL_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Variables arrive as query-string text; they take the type of the field they are compared with. */
function variableAs(kind: ScalarKind, text: string, variable: VariableValue, field: ResolvedField): Comparable {
  const value = coerceText(kind, text);
  if (value === undefined) {
    throw queryError(
      'where',
      `Variable ':${variable.name}' is ${describeLiteral(text)}, which is not ${describeField({ kind })} as field '${pathOf(field)}' requires`,
      { column: variable.column },
    );
  }
  return value;
}

function coerceText(kind: ScalarKind, text: string): Comparable | undefined {
  switch (kind) {
    case 'string':
      return text;
    case 'number': {
      const number = DECIMAL_NUMBER.test(text) ? Number(text) : Number.NaN;
      return Number.isFinite(number) ? number : undefined;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'datetime':
      return instantOf(text);
    default:
      return kind satisfies never;
  }
}

const MAX_QUOTED_VALUE = 40;

function describeLiteral(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const quoted = JSON.stringify(value);
  return quoted.length <= MAX_QUOTED_VALUE ? quoted : `${leadingText(quoted, MAX_QUOTED_VALUE)}..."`;
}
