import { describe, expect, it } from 'vitest';
import {
  ArrayTestType,
  ObjectTestType,
  ObjectTestTypeDraft,
  ObjectTypeElement,
  ResourceKey,
  Version,
} from '../../../shared/domain/resource.js';
import {
  arrayTestType,
  arrayTestTypeCustom1,
  arrayTestTypeCustom2,
  copy,
  draftWith,
  embeddedExamples,
  objectTestTypeDraft,
  readExampleFile,
} from './fixtures.js';

/** The paths (dot/bracket joined) of every issue of a failed parse; [] when the value is valid. */
function issuePaths(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error!.issues.map((issue) => issue.path.map(String).join('.'));
}

const draftOf = (overrides: Record<string, unknown>) => draftWith({ ...arrayTestType, ...overrides });

describe('example fixtures', () => {
  it('embedded copies equal the files in test/fixtures/examples/', () => {
    for (const [name, embedded] of Object.entries(embeddedExamples)) {
      expect(readExampleFile(name), name).toEqual(embedded);
    }
  });
});

describe('ObjectTestTypeDraft: valid inputs', () => {
  it('accepts object-test-type-draft.json unchanged', () => {
    const result = ObjectTestTypeDraft.safeParse(copy(objectTestTypeDraft));
    expect(result.success).toBe(true);
    expect(result.data).toEqual(objectTestTypeDraft);
  });

  it.each([
    ['array-test-type.json', arrayTestType],
    ['array-test-type-custom-1.json', arrayTestTypeCustom1],
    ['array-test-type-custom-2.json', arrayTestTypeCustom2],
  ])('accepts %s as objectTypeProperty', (_name, objectTypeProperty) => {
    const draft = draftWith(objectTypeProperty);
    expect(ObjectTestTypeDraft.parse(draft)).toEqual(draft);
  });

  it('accepts an empty objectTypeProperty: every array is optional', () => {
    expect(ObjectTestTypeDraft.parse({ objectTypeProperty: {} })).toEqual({ objectTypeProperty: {} });
  });

  it('accepts an optional key and version alongside objectTypeProperty', () => {
    const draft = draftWith(arrayTestType, { key: 'my-key_01', version: 3 });
    expect(ObjectTestTypeDraft.parse(draft)).toEqual(draft);
  });

  it('refuses a draft without objectTypeProperty', () => {
    expect(issuePaths(ObjectTestTypeDraft, { key: 'abc' })).toEqual(['objectTypeProperty']);
  });

  it.each([null, 'raw string', 42, [], true])('refuses a non-object body %j', (body) => {
    expect(ObjectTestTypeDraft.safeParse(body).success).toBe(false);
  });
});

describe('ObjectTestTypeDraft: unknown fields are refused, not dropped', () => {
  it('refuses an unknown top-level field', () => {
    const result = ObjectTestTypeDraft.safeParse(draftWith(arrayTestType, { someProperty: 'x' }));
    expect(result.success).toBe(false);
    expect(result.error!.issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['someProperty'], path: [] }]);
  });

  it('refuses server-assigned fields (id, createdAt) in a draft', () => {
    const result = ObjectTestTypeDraft.safeParse(draftWith(arrayTestType, { id: 'x', createdAt: '2024-01-01T00:00:00.000Z' }));
    expect(result.error!.issues).toMatchObject([{ code: 'unrecognized_keys', keys: ['id', 'createdAt'] }]);
  });

  it('refuses an unknown field inside objectTypeProperty', () => {
    const result = ObjectTestTypeDraft.safeParse(draftOf({ arrayOfBoolExample: [true] }));
    expect(result.error!.issues).toMatchObject([
      { code: 'unrecognized_keys', keys: ['arrayOfBoolExample'], path: ['objectTypeProperty'] },
    ]);
  });

  it('refuses an unknown field inside an arrayOfObjectType element', () => {
    const result = ObjectTestTypeDraft.safeParse(draftOf({ arrayOfObjectType: [{ integerExample: 1, extra: 2 }] }));
    expect(result.error!.issues).toMatchObject([
      { code: 'unrecognized_keys', keys: ['extra'], path: ['objectTypeProperty', 'arrayOfObjectType', 0] },
    ]);
  });
});

describe('ArrayTestType constraints', () => {
  describe('arrayOfIntExample: integers, at least one item', () => {
    it('refuses an empty array', () => {
      expect(issuePaths(ArrayTestType, { arrayOfIntExample: [] })).toEqual(['arrayOfIntExample']);
    });

    it('accepts a single item and repeated values (repetition is allowed here)', () => {
      expect(ArrayTestType.safeParse({ arrayOfIntExample: [7] }).success).toBe(true);
      expect(ArrayTestType.safeParse({ arrayOfIntExample: [7, 7, 7] }).success).toBe(true);
    });

    it('accepts zero and negative integers', () => {
      expect(ArrayTestType.safeParse({ arrayOfIntExample: [0, -5] }).success).toBe(true);
    });

    it('refuses a fractional number at its index', () => {
      expect(issuePaths(ArrayTestType, { arrayOfIntExample: [1, 2.5] })).toEqual(['arrayOfIntExample.1']);
    });

    it('refuses numeric strings', () => {
      expect(issuePaths(ArrayTestType, { arrayOfIntExample: ['1'] })).toEqual(['arrayOfIntExample.0']);
    });

    it('accepts the largest safe integer and refuses the first unsafe one', () => {
      expect(ArrayTestType.safeParse({ arrayOfIntExample: [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER] }).success).toBe(true);
      expect(ArrayTestType.safeParse({ arrayOfIntExample: [2 ** 53] }).success).toBe(false);
    });

    it('refuses a non-array value', () => {
      expect(issuePaths(ArrayTestType, { arrayOfIntExample: 1 })).toEqual(['arrayOfIntExample']);
    });
  });

  describe('arrayOfUniqueIntExample: integers, at least one item, no duplicates', () => {
    it('accepts distinct integers', () => {
      expect(ArrayTestType.safeParse({ arrayOfUniqueIntExample: [1, 3, 5, 7] }).success).toBe(true);
    });

    it('refuses an empty array', () => {
      expect(issuePaths(ArrayTestType, { arrayOfUniqueIntExample: [] })).toEqual(['arrayOfUniqueIntExample']);
    });

    it('refuses a duplicate and reports the first duplicated value once', () => {
      const result = ArrayTestType.safeParse({ arrayOfUniqueIntExample: [4, 9, 9, 4, 4] });
      expect(result.success).toBe(false);
      expect(result.error!.issues).toHaveLength(1);
      expect(result.error!.issues[0]).toMatchObject({
        code: 'custom',
        path: ['arrayOfUniqueIntExample'],
        params: { duplicateValue: 9 },
      });
    });

    it('treats non-adjacent repeats as duplicates', () => {
      const result = ArrayTestType.safeParse({ arrayOfUniqueIntExample: [1, 2, 3, 1] });
      expect(result.error!.issues[0]).toMatchObject({ params: { duplicateValue: 1 } });
    });

    it('refuses fractional numbers', () => {
      expect(issuePaths(ArrayTestType, { arrayOfUniqueIntExample: [1, 1.5] })).toEqual(['arrayOfUniqueIntExample.1']);
    });
  });

  describe('arrayOfTwonumbersExample: exactly two numbers', () => {
    it.each([[[]], [[1]], [[1, 2, 3]]])('refuses %j', (value) => {
      expect(issuePaths(ArrayTestType, { arrayOfTwonumbersExample: value })).toEqual(['arrayOfTwonumbersExample']);
    });

    it('accepts two numbers, fractional or negative', () => {
      expect(ArrayTestType.safeParse({ arrayOfTwonumbersExample: [-1.5, 2.25] }).success).toBe(true);
    });
  });

  describe('arrayOfFloatExample: exactly one number', () => {
    it.each([[[]], [[0.5, 0.6]]])('refuses %j', (value) => {
      expect(issuePaths(ArrayTestType, { arrayOfFloatExample: value })).toEqual(['arrayOfFloatExample']);
    });

    it('accepts one number', () => {
      expect(ArrayTestType.safeParse({ arrayOfFloatExample: [0.82] }).success).toBe(true);
    });

    it('refuses a string in place of the number', () => {
      expect(issuePaths(ArrayTestType, { arrayOfFloatExample: ['0.82'] })).toEqual(['arrayOfFloatExample.0']);
    });
  });

  describe('arrayOfNumberNoDefaultsExample and the DynamoDB-storable number range', () => {
    it('accepts an empty array (no minimum)', () => {
      expect(ArrayTestType.safeParse({ arrayOfNumberNoDefaultsExample: [] }).success).toBe(true);
    });

    it('accepts zero, negative zero and magnitudes inside (1e-129, 1e125)', () => {
      const value = [0, -0, 1e124, -1e124, 1.5e-129, -1.5e-129, 3.14];
      expect(ArrayTestType.safeParse({ arrayOfNumberNoDefaultsExample: value }).success).toBe(true);
    });

    it.each([1e125, -1e125, 1e200, 1e-129, 1e-130, -1e-300, Number.MIN_VALUE])('refuses %d, outside the storable range', (n) => {
      const result = ArrayTestType.safeParse({ arrayOfNumberNoDefaultsExample: [n] });
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toMatch(/storable range/);
    });

    it('applies the storable range to arrayOfTwonumbersExample and arrayOfFloatExample too', () => {
      expect(issuePaths(ArrayTestType, { arrayOfTwonumbersExample: [1, 1e130], arrayOfFloatExample: [1e-200] })).toEqual([
        'arrayOfTwonumbersExample.1',
        'arrayOfFloatExample.0',
      ]);
    });

    it('refuses NaN and infinities', () => {
      for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        expect(ArrayTestType.safeParse({ arrayOfNumberNoDefaultsExample: [n] }).success, String(n)).toBe(false);
      }
    });
  });

  describe('arrayOfStringExample', () => {
    it('accepts strings up to 4096 characters and refuses longer ones', () => {
      expect(ArrayTestType.safeParse({ arrayOfStringExample: ['', 'x'.repeat(4096)] }).success).toBe(true);
      expect(issuePaths(ArrayTestType, { arrayOfStringExample: ['ok', 'x'.repeat(4097)] })).toEqual(['arrayOfStringExample.1']);
    });

    it('refuses non-string items', () => {
      expect(issuePaths(ArrayTestType, { arrayOfStringExample: ['a', 1, null] })).toEqual([
        'arrayOfStringExample.1',
        'arrayOfStringExample.2',
      ]);
    });
  });
});

describe('ObjectTypeElement (arrayOfObjectType items)', () => {
  it('requires integerExample', () => {
    expect(issuePaths(ObjectTypeElement, { integerExampleInt32: 1 })).toEqual(['integerExample']);
  });

  it('accepts integerExample at both ends of 0..64650', () => {
    expect(ObjectTypeElement.safeParse({ integerExample: 0 }).success).toBe(true);
    expect(ObjectTypeElement.safeParse({ integerExample: 64650 }).success).toBe(true);
  });

  it.each([-1, 64651, 1.5])('refuses integerExample %d', (integerExample) => {
    expect(issuePaths(ObjectTypeElement, { integerExample })).toEqual(['integerExample']);
  });

  it('accepts integerExampleInt32 at the 32-bit limits', () => {
    expect(ObjectTypeElement.safeParse({ integerExample: 1, integerExampleInt32: -2147483648 }).success).toBe(true);
    expect(ObjectTypeElement.safeParse({ integerExample: 1, integerExampleInt32: 2147483647 }).success).toBe(true);
  });

  it.each([-2147483649, 2147483648, 0.5])('refuses integerExampleInt32 %d', (integerExampleInt32) => {
    expect(issuePaths(ObjectTypeElement, { integerExample: 1, integerExampleInt32 })).toEqual(['integerExampleInt32']);
  });

  it('reports the failing element by index inside a draft', () => {
    const draft = draftOf({ arrayOfObjectType: [{ integerExample: 1 }, { integerExample: 70000 }] });
    expect(issuePaths(ObjectTestTypeDraft, draft)).toEqual(['objectTypeProperty.arrayOfObjectType.1.integerExample']);
  });
});

describe('ResourceKey', () => {
  it.each(['ab', 'AZ-az_09', 'x'.repeat(256), '--', '__'])('accepts %s', (key) => {
    expect(ResourceKey.safeParse(key).success).toBe(true);
  });

  it.each([
    ['one character', 'a'],
    ['the empty string', ''],
    ['257 characters', 'x'.repeat(257)],
    ['a space', 'my key'],
    ['a dot', 'my.key'],
    ['a slash', 'my/key'],
    ['an equals sign', 'key=abc'],
    ['a non-ASCII letter', 'schlüssel'],
    ['a trailing newline', 'abc\n'],
  ])('refuses a key with %s', (_what, key) => {
    const result = ResourceKey.safeParse(key);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('key must be 2 to 256 characters of A-Z, a-z, 0-9, _ and -');
  });

  it('refuses a non-string key inside a draft', () => {
    expect(issuePaths(ObjectTestTypeDraft, draftWith(arrayTestType, { key: 12 }))).toEqual(['key']);
  });
});

describe('Version', () => {
  it('accepts positive integers', () => {
    expect(Version.safeParse(1).success).toBe(true);
    expect(Version.safeParse(123456).success).toBe(true);
  });

  it.each([0, -1, 1.5, '1'])('refuses %j', (version) => {
    expect(Version.safeParse(version).success).toBe(false);
  });
});

describe('ObjectTestType (stored resource)', () => {
  const stored = {
    id: '6f2b1d8e-3c1a-4b7e-9f00-0a1b2c3d4e5f',
    key: 'alpha',
    version: 1,
    createdAt: '2024-01-01T10:00:00.000Z',
    lastModifiedAt: '2024-01-01T10:00:00.000Z',
    objectTypeProperty: arrayTestType,
    someProperty: 'hello',
  };

  it('accepts a complete stored resource', () => {
    expect(ObjectTestType.parse(copy(stored))).toEqual(stored);
  });

  it('requires id, version and both timestamps', () => {
    const { id: _id, version: _version, createdAt: _c, lastModifiedAt: _l, ...rest } = stored;
    expect(issuePaths(ObjectTestType, rest).sort()).toEqual(['createdAt', 'id', 'lastModifiedAt', 'version']);
  });

  it('refuses an id that is not a UUID and a timestamp that is not ISO 8601', () => {
    expect(issuePaths(ObjectTestType, { ...stored, id: 'not-a-uuid', createdAt: '01/02/2024' }).sort()).toEqual(['createdAt', 'id']);
  });
});
