import { forEachString, searchValuesAt, valuesAt } from './document-values';
import type { FieldCatalog } from './field-catalog';
import { tokenize } from './text-match';

/** What the search index keeps of a resource: enough to answer every search without the resource itself. The text matches words; filters, facets and sorts read values. */
export interface ResourceProjection {
  /**
   * The words of each string value, with the text field it is at (a field's full text reads only
   * its own); '' for a string elsewhere (a date-time, a field the schema does not name).
   */
  texts: { field: string; words: string[] }[];
  /** The resource's values at every field the catalog knows, as `searchValuesAt` reads them. */
  values: ProjectedValue[];
}

/**
 * One value at a field: a number (an instant of a date-time field too), a text, or neither (an
 * object, or a value not of the field's kind: the field is present but holds nothing a filter
 * compares; one such entry per field is enough for `exists`). Repeats stay: a range facet counts every value.
 */
export interface ProjectedValue {
  field: string;
  number?: number;
  text?: string;
}

export function projectResource(resource: unknown, fields: FieldCatalog): ResourceProjection {
  const texts: ResourceProjection['texts'] = [];
  forEachString(resource, (text, field) => texts.push({ field: fields.lookup(field)?.kind === 'text' ? field : '', words: tokenize(text) }));
  const values: ProjectedValue[] = [];
  for (const field of fields.all()) {
    const held = searchValuesAt(resource, field);
    for (const value of held) values.push(typeof value === 'number' ? { field: field.path, number: value } : { field: field.path, text: value });
    if (held.length < valuesAt(resource, field.segments).length) values.push({ field: field.path });
  }
  return { texts, values };
}
