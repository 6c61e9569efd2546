/**
 * Which fields a search may name, and of what kind: the search's view of the resource's field
 * model (language/field-model.ts). Arrays count as their elements: a field holding an array of
 * numbers is a number field.
 */
import { elementsOf, fieldModelFromJsonSchema, fieldOf, type FieldModel } from '../language/field-model';

/** Date-time fields (`format: date-time`) hold instants, compared as epoch milliseconds. `other` fields (objects, booleans, …) exist but hold no value a filter can compare. */
export type FieldKind = 'number' | 'text' | 'datetime' | 'other';

export interface Field {
  /** The path as written, e.g. `objectTypeProperty.arrayOfIntExample`. */
  path: string;
  segments: readonly string[];
  kind: FieldKind;
}

export class FieldCatalog {
  private readonly root: FieldModel;

  constructor(jsonSchema: object) {
    this.root = fieldModelFromJsonSchema(jsonSchema);
  }

  /** The field at a dotted path, or undefined when the schema has no such field. */
  lookup(path: string): Field | undefined {
    const segments = path.split('.');
    let field: FieldModel | undefined = this.root;
    for (const name of segments) {
      const scope: FieldModel | undefined = field && elementsOf(field);
      field = scope?.kind === 'object' ? fieldOf(scope, name) : undefined;
    }
    return field && { path, segments, kind: kindOf(field) };
  }

  /** Every field a search may name, each before the fields within it. */
  all(): Field[] {
    const found: Field[] = [];
    const visit = (model: FieldModel, segments: readonly string[]) => {
      const scope = elementsOf(model);
      if (scope.kind !== 'object') return;
      for (const [name, field] of Object.entries(scope.fields)) {
        const path = [...segments, name];
        found.push({ path: path.join('.'), segments: path, kind: kindOf(field) });
        visit(field, path);
      }
    };
    visit(this.root, []);
    return found;
  }
}

function kindOf(field: FieldModel): FieldKind {
  const { kind } = elementsOf(field);
  if (kind === 'number' || kind === 'datetime') return kind;
  return kind === 'string' ? 'text' : 'other';
}
