import { describe, expect, it } from 'vitest';
import { FieldCatalog, projectResource, tokenize } from '../../../shared/domain/search';
import { resource, resourceSchema } from './fixtures';

const fields = new FieldCatalog(resourceSchema);

describe('what the search index keeps of a resource (projectResource)', () => {
  const doc = resource({
    key: 'red-dog',
    someProperty: 'Red DOG, red!',
    objectTypeProperty: { arrayOfIntExample: [3, 3, 5], arrayOfObjectType: [{ integerExample: 1 }, { integerExample: 2, integerExampleInt32: -1 }] },
  });
  const { texts, values } = projectResource(doc, fields);
  const words = texts.flatMap((text) => text.words);
  const at = (field: string) => values.filter((value) => value.field === field);

  it('words: the tokens of every string, each as often as it occurs, with the field it is at', () => {
    expect(words.filter((word) => word === 'red')).toHaveLength(3);
    expect(texts).toContainEqual({ field: 'someProperty', words: ['red', 'dog', 'red'] });
    expect(texts).toContainEqual({ field: 'key', words: ['red', 'dog'] });
    // Strings outside the schema's text fields (instants) are words of no field.
    expect(texts).toContainEqual({ field: '', words: tokenize(String(doc['createdAt'])) });
    // The id and the instants are strings too: their tokens are words as well.
    expect(words).toContain(String(doc['id']).split('-')[0]);
  });

  it('values: instants of date-time fields as epoch milliseconds', () => {
    expect(at('createdAt')).toEqual([{ field: 'createdAt', number: Date.parse(String(doc['createdAt'])) }]);
  });

  it('values: numbers and texts at every field, arrays flattened, repeats kept', () => {
    expect(at('objectTypeProperty.arrayOfIntExample')).toEqual([3, 3, 5].map((number) => ({ field: 'objectTypeProperty.arrayOfIntExample', number })));
    expect(at('objectTypeProperty.arrayOfObjectType.integerExample').map((value) => value.number)).toEqual([1, 2]);
    expect(at('objectTypeProperty.arrayOfObjectType.integerExampleInt32').map((value) => value.number)).toEqual([-1]);
    expect(at('key')).toEqual([{ field: 'key', text: 'red-dog' }]);
  });

  it('a field holding objects is present once, without a number or text; an absent field has nothing', () => {
    expect(at('objectTypeProperty.arrayOfObjectType')).toEqual([{ field: 'objectTypeProperty.arrayOfObjectType' }]);
    expect(at('objectTypeProperty')).toEqual([{ field: 'objectTypeProperty' }]);
    expect(at('objectTypeProperty.arrayOfStringExample')).toEqual([]);
  });
});
