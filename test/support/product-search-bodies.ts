import fc from 'fast-check';

/**
 * Generated bodies of POST /{projectKey}/resource/search (Product Search's request) for the
 * differential test: compounds nested up to three deep, every simple expression, sorts, pages,
 * `postFilter` and facets of each kind, over the fields and values of a generated set of resources.
 * About one body in 25 holds a mistake (an unknown field, a value of another kind, a range
 * without bounds), which the endpoint must refuse with 400 as the parser does.
 */
export interface BodyVocabulary {
  /** Words the resources hold, near misses included. */
  words: readonly string[];
  numberFields: readonly string[];
  /** Number values that occur, and some that do not. */
  numbers: fc.Arbitrary<number>;
  textFields: readonly string[];
  /** Date-time fields, and the instants (epoch milliseconds) around which the resources hold their values. */
  dateTimeFields: readonly string[];
  instants: readonly number[];
  /** Fields that hold objects: `exists` only. */
  otherFields: readonly string[];
}

export function productSearchBodies(vocabulary: BodyVocabulary): fc.Arbitrary<Record<string, unknown>> {
  const { words, numberFields, numbers, textFields, dateTimeFields, otherFields } = vocabulary;
  const word = fc.constantFrom(...words);
  const text = fc.array(word, { minLength: 1, maxLength: 3 }).map((chosen) => chosen.join(' '));
  /** An instant near one the resources hold, written with an offset and to the second or millisecond, as clients do. */
  const instant = fc
    .tuple(fc.constantFrom(...vocabulary.instants), fc.integer({ min: -3_000, max: 3_000 }), fc.constantFrom(0, 60, -330), fc.boolean())
    .map(([around, shift, offsetMinutes, seconds]) => {
      const local = new Date(around + shift + offsetMinutes * 60_000).toISOString().slice(0, seconds ? 19 : 23);
      const sign = offsetMinutes < 0 ? '-' : '+';
      const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
      return offsetMinutes === 0 ? `${local}Z` : `${local}${sign}${hours}:${String(Math.abs(offsetMinutes) % 60).padStart(2, '0')}`;
    });
  /** A field with values of its kind. */
  const typed = fc.oneof(
    fc.record({ field: fc.constantFrom(...numberFields), value: numbers as fc.Arbitrary<number | string> }),
    fc.record({ field: fc.constantFrom(...textFields), value: word as fc.Arbitrary<number | string> }),
    fc.record({ field: fc.constantFrom(...dateTimeFields), value: instant as fc.Arbitrary<number | string> }),
  );
  const valuesOf = (field: string) => (numberFields.includes(field) ? numbers : textFields.includes(field) ? word : instant) as fc.Arbitrary<number | string>;
  const mistake = fc.oneof(
    fc.constant({ exact: { field: 'noSuchField', value: 1 } }),
    fc.constantFrom(...numberFields).map((field) => ({ exact: { field, value: 'one' } })),
    fc.constantFrom(...dateTimeFields).map((field) => ({ range: { field, gte: 'yesterday' } })),
    fc.constantFrom(...textFields).map((field) => ({ range: { field } })),
    fc.constantFrom(...numberFields).map((field) => ({ prefix: { field, value: '1' } })),
  );
  const language = fc.constantFrom('en', 'de', 'fi', 'zz');
  const textExpression = (kind: 'fullText' | 'fullTextPrefix') =>
    fc.record({ field: fc.constantFrom(...textFields), value: text, language, mustMatch: fc.constantFrom('all', 'any') }, { requiredKeys: ['value'] }).map((body) => ({ [kind]: body }));

  const simple: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    typed.chain(({ field, value }) =>
      fc.oneof(
        fc.record({ field: fc.constant(field), value: fc.constant(value), caseInsensitive: fc.boolean() }, { requiredKeys: ['field', 'value'] }),
        fc.record({ field: fc.constant(field), values: fc.array(valuesOf(field), { minLength: 1, maxLength: 3 }) }),
      ),
    ).map((body) => ({ exact: body })),
    textExpression('fullText'),
    textExpression('fullTextPrefix'),
    fc.record({ field: fc.constantFrom(...textFields), value: text, level: fc.integer({ min: 0, max: 2 }), mustMatch: fc.constantFrom('all', 'any') }, { requiredKeys: ['value', 'level'] }).map((body) => ({ fuzzy: body })),
    fc.record({ field: fc.constantFrom(...textFields), value: word.map((chosen) => chosen.slice(0, 2)), caseInsensitive: fc.boolean() }, { requiredKeys: ['field', 'value'] }).map((body) => ({ prefix: body })),
    fc.record({ field: fc.constantFrom(...textFields), value: word.map((chosen) => `${chosen.slice(0, 1)}?${chosen.slice(2)}*`) }).map((body) => ({ wildcard: body })),
    typed.chain(({ field }) =>
      fc.record({ field: fc.constant(field), gt: valuesOf(field), gte: valuesOf(field), lt: valuesOf(field), lte: valuesOf(field) }, { requiredKeys: ['field'] }).filter((range) => Object.keys(range).length > 1),
    ).map((body) => ({ range: body })),
    fc.constantFrom(...numberFields, ...textFields, ...dateTimeFields, ...otherFields).map((field) => ({ exists: { field } })),
  );
  const { query } = fc.letrec<{ query: Record<string, unknown> }>((tie) => ({
    query: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: simple, weight: 4 },
      { arbitrary: fc.tuple(fc.constantFrom('and', 'or', 'not', 'filter'), fc.array(tie('query'), { minLength: 1, maxLength: 3 })).map(([kind, of]) => ({ [kind]: of })), weight: 2 },
    ),
  }));
  const withMistake = fc.oneof({ arbitrary: query, weight: 24 }, { arbitrary: mistake, weight: 1 });

  const scope = fc.constantFrom('query', 'all');
  const facet = fc.oneof(
    fc
      .record(
        {
          name: fc.constant('distinct'),
          field: fc.constantFrom(...numberFields, ...textFields, ...dateTimeFields),
          limit: fc.integer({ min: 1, max: 6 }),
          sort: fc.record({ by: fc.constantFrom('count', 'key'), order: fc.constantFrom('asc', 'desc') }),
          missing: fc.constant('none'),
          scope,
          filter: query,
        },
        { requiredKeys: ['name', 'field'] },
      )
      .chain((distinct) => fc.option(fc.array(valuesOf(distinct.field).map(String), { maxLength: 3 }), { nil: undefined }).map((includes) => ({ distinct: { ...distinct, ...(includes ? { includes } : {}) } }))),
    fc
      .constantFrom(...numberFields, ...dateTimeFields)
      .chain((field) =>
        fc.record({
          name: fc.constant('ranges'),
          field: fc.constant(field),
          ranges: fc.array(fc.record({ from: valuesOf(field), to: valuesOf(field), key: fc.constant('k') }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 }),
          scope,
        }),
      )
      .map((ranges) => ({ ranges })),
    fc.record({ name: fc.constant('count'), scope, filter: query }, { requiredKeys: ['name'] }).map((count) => ({ count })),
    fc.record({ name: fc.constant('stats'), field: fc.constantFrom(...numberFields, ...dateTimeFields, ...textFields), scope, filter: query }, { requiredKeys: ['name', 'field'] }).map((stats) => ({ stats })),
  );
  const sorting = fc.oneof(
    fc.record({ field: fc.constant('score'), order: fc.constantFrom('asc', 'desc') }),
    fc.record({ field: fc.constantFrom(...numberFields), order: fc.constantFrom('asc', 'desc'), mode: fc.constantFrom('min', 'max', 'avg', 'sum') }, { requiredKeys: ['field', 'order'] }),
    fc.record({ field: fc.constantFrom(...textFields, ...dateTimeFields, 'id'), order: fc.constantFrom('asc', 'desc') }),
  );
  return fc.record(
    {
      query: withMistake,
      postFilter: query,
      facets: fc.array(facet, { maxLength: 3 }),
      sort: fc.array(sorting, { maxLength: 2 }),
      limit: fc.integer({ min: 1, max: 60 }),
      offset: fc.integer({ min: 0, max: 40 }),
      resourceParameters: fc.constant({}),
    },
    { requiredKeys: ['limit'] },
  );
}
