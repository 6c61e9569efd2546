import { forEachString, valuesAt } from './document-values';
import type { FieldCatalog } from './field-catalog';
import { tokenize } from './text-match';

/**
 * What the search index keeps of a resource: enough to answer every search without the resource
 * itself. The text matches words; filters, facets and sorts read values.
 */
export interface ResourceProjection {
  /** The tokens of every string value, in document order, each as often as it occurs (relevance counts them). */
  words: string[];
  /** The resource's values at every field the catalog knows, arrays flattened as `valuesAt` reads them. */
  values: ProjectedValue[];
}

/**
 * One value at a field: a number, a text, or neither (an object or a boolean: the field is present
 * but holds nothing a filter compares; one such entry per field is enough for exists and missing).
 * Repeated values stay: a range facet counts every value.
 */
export interface ProjectedValue {
  field: string;
  number?: number;
  text?: string;
}

export function projectResource(resource: unknown, fields: FieldCatalog): ResourceProjection {
  const words: string[] = [];
  forEachString(resource, (text) => words.push(...tokenize(text)));
  const values: ProjectedValue[] = [];
  for (const { path, segments } of fields.all()) {
    let present = false;
    for (const value of valuesAt(resource, segments)) {
      if (typeof value === 'number') values.push({ field: path, number: value });
      else if (typeof value === 'string') values.push({ field: path, text: value });
      else present = true;
    }
    if (present) values.push({ field: path });
  }
  return { words, values };
}
