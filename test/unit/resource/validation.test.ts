import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ObjectTestTypeDraft } from '../../../shared/domain/resource.js';
import { UpdateRequest } from '../../../shared/domain/update-actions.js';
import { ValidationError, validate } from '../../../shared/domain/validation.js';
import { toApiError, type ApiError } from '../../../shared/http/errors.js';
import { arrayTestType, copy, draftWith, objectTestTypeDraft } from './fixtures.js';

/** The answer to the ValidationError that validate() throws for the value; fails the test when it does not throw one. */
function refusal(value: unknown, schema: z.ZodMiniType = ObjectTestTypeDraft, root?: string): ApiError {
  try {
    validate(schema, value, root);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return toApiError(error);
  }
  throw new Error('validate() accepted the value');
}

const draftOf = (overrides: Record<string, unknown>) => draftWith({ ...arrayTestType, ...overrides });

describe('validate(): valid values', () => {
  it('returns the parsed draft for object-test-type-draft.json', () => {
    const value = copy(objectTestTypeDraft);
    expect(validate(ObjectTestTypeDraft, value)).toEqual(objectTestTypeDraft);
  });

  it('returns the parsed update request for a valid body', () => {
    expect(validate(UpdateRequest, { version: 2, actions: [{ action: 'doSomeThing' }] })).toEqual({
      version: 2,
      actions: [{ action: 'doSomeThing' }],
    });
  });
});

describe('validate(): the error body', () => {
  it('throws an ApiError with status 400 and the commercetools shape', () => {
    const error = refusal({ objectTypeProperty: { arrayOfFloatExample: [] } });
    expect(error.statusCode).toBe(400);
    expect(error.body).toEqual({
      statusCode: 400,
      message: error.errors[0].message,
      errors: error.errors,
    });
    expect(error.body.errors.length).toBeGreaterThan(0);
    for (const entry of error.body.errors) {
      expect(typeof entry.code).toBe('string');
      expect(typeof entry.message).toBe('string');
    }
  });

  it('uses the first error message as the top-level message', () => {
    const error = refusal({ key: 'a', objectTypeProperty: { arrayOfFloatExample: [] } });
    expect(error.body.errors).toHaveLength(2);
    expect(error.body.message).toBe(error.body.errors[0]!.message);
    expect(error.message).toBe(error.body.errors[0]!.message);
  });

  it('reports every issue, not only the first', () => {
    const error = refusal(draftOf({ arrayOfIntExample: [], arrayOfTwonumbersExample: [1], arrayOfFloatExample: [1, 2] }));
    expect(error.body.errors.map((e) => e.field)).toEqual([
      'objectTypeProperty.arrayOfIntExample',
      'objectTypeProperty.arrayOfTwonumbersExample',
      'objectTypeProperty.arrayOfFloatExample',
    ]);
  });

  it('lists at most 100 problems, then says how many more there are', () => {
    // 60,000 invalid values fit in a 256 KB body; listing each would answer ≈ 14 MB.
    const error = refusal(draftOf({ arrayOfIntExample: new Array(60_000).fill('a') }));
    const errors = error.body.errors;
    expect(errors).toHaveLength(101);
    expect(errors.slice(0, 100).every((entry) => entry.code === 'InvalidField')).toBe(true);
    expect(errors[99]).toMatchObject({ field: 'objectTypeProperty.arrayOfIntExample[99]', invalidValue: 'a' });
    expect(errors[100]).toEqual({
      code: 'InvalidInput',
      message: '59900 more problems in this body are not listed: fix those above and send it again.',
    });
    expect(JSON.stringify(error.body).length).toBeLessThan(40_000);
  });

  it('lists exactly 100 problems without a note', () => {
    const errors = refusal(draftOf({ arrayOfIntExample: new Array(100).fill('a') })).body.errors;
    expect(errors).toHaveLength(100);
    expect(errors.every((entry) => entry.code === 'InvalidField')).toBe(true);
  });

  it('adds no extra top-level fields and no headers', () => {
    const error = refusal({});
    expect(Object.keys(error.body).sort()).toEqual(['errors', 'message', 'statusCode']);
    expect(error.headers).toEqual({});
  });
});

describe('validate(): RequiredField', () => {
  it('names a missing top-level field', () => {
    expect(refusal({ key: 'abc' }).body.errors).toEqual([
      { code: 'RequiredField', message: 'A value is required for field objectTypeProperty.', field: 'objectTypeProperty' },
    ]);
  });

  it('names a missing nested field with its array index', () => {
    const error = refusal(draftOf({ arrayOfObjectType: [{ integerExample: 1 }, { integerExampleInt32: 5 }] }));
    expect(error.body.errors).toEqual([
      {
        code: 'RequiredField',
        message: 'A value is required for field objectTypeProperty.arrayOfObjectType[1].integerExample.',
        field: 'objectTypeProperty.arrayOfObjectType[1].integerExample',
      },
    ]);
  });

  it('calls a missing body "body" with an empty field path', () => {
    expect(refusal(undefined).body.errors).toEqual([{ code: 'RequiredField', message: 'A value is required for field body.', field: '' }]);
  });

  it('carries no invalidValue', () => {
    expect(refusal({}).body.errors[0]).not.toHaveProperty('invalidValue');
  });
});

describe('validate(): DuplicateField', () => {
  it('reports the duplicated value of arrayOfUniqueIntExample', () => {
    const error = refusal(draftOf({ arrayOfUniqueIntExample: [2, 6, 2] }));
    expect(error.body.errors).toEqual([
      {
        code: 'DuplicateField',
        message: 'Field objectTypeProperty.arrayOfUniqueIntExample contains the duplicate value 2.',
        field: 'objectTypeProperty.arrayOfUniqueIntExample',
        duplicateValue: 2,
      },
    ]);
  });

  it('reports the first value seen twice when several repeat', () => {
    const error = refusal(draftOf({ arrayOfUniqueIntExample: [5, 8, 8, 5] }));
    expect(error.body.errors).toHaveLength(1);
    expect(error.body.errors[0]).toMatchObject({ code: 'DuplicateField', duplicateValue: 8 });
  });

  it('keeps duplicateValue a number, not a string', () => {
    const [entry] = refusal(draftOf({ arrayOfUniqueIntExample: [0, 0] })).body.errors;
    expect(entry!.duplicateValue).toBe(0);
  });
});

describe('validate(): InvalidInput for unknown fields', () => {
  it('names one unknown top-level field', () => {
    const error = refusal(draftWith(arrayTestType, { someProperty: 'x' }));
    expect(error.body.errors).toEqual([{ code: 'InvalidInput', message: 'Unknown field someProperty.', fields: ['someProperty'] }]);
  });

  it('names several unknown fields in one error, in body order', () => {
    const error = refusal(draftWith(arrayTestType, { foo: 1, bar: 2 }));
    expect(error.body.errors).toEqual([{ code: 'InvalidInput', message: 'Unknown fields foo, bar.', fields: ['foo', 'bar'] }]);
  });

  it('names an unknown field nested in an array element by its full path', () => {
    const error = refusal(draftOf({ arrayOfObjectType: [{ integerExample: 1 }, { integerExample: 2, x: 1 }] }));
    expect(error.body.errors).toEqual([
      {
        code: 'InvalidInput',
        message: 'Unknown field objectTypeProperty.arrayOfObjectType[1].x.',
        fields: ['objectTypeProperty.arrayOfObjectType[1].x'],
      },
    ]);
  });

  it('refuses unknown fields even when everything else is valid (nothing is silently dropped)', () => {
    const error = refusal({ ...copy(objectTestTypeDraft), objectTypeProperty: { ...arrayTestType, arrayOfBoolExample: [true] } });
    expect(error.body.errors.map((e) => e.code)).toEqual(['InvalidInput']);
    expect(error.body.errors[0]!.fields).toEqual(['objectTypeProperty.arrayOfBoolExample']);
  });
});

describe('validate(): InvalidField', () => {
  it('reports an out-of-range integerExample with its indexed path and value', () => {
    const error = refusal(draftOf({ arrayOfObjectType: [{ integerExample: 64651 }] }));
    expect(error.body.errors).toHaveLength(1);
    expect(error.body.errors[0]).toMatchObject({
      code: 'InvalidField',
      field: 'objectTypeProperty.arrayOfObjectType[0].integerExample',
      invalidValue: 64651,
    });
    expect(error.body.errors[0]!.message).toMatch(
      /^The value 64651 is not valid for field objectTypeProperty\.arrayOfObjectType\[0\]\.integerExample: .+\.$/,
    );
  });

  it('reports the whole array as invalidValue when its length is wrong', () => {
    const error = refusal(draftOf({ arrayOfTwonumbersExample: [1, 2, 3] }));
    expect(error.body.errors).toEqual([
      expect.objectContaining({ code: 'InvalidField', field: 'objectTypeProperty.arrayOfTwonumbersExample', invalidValue: [1, 2, 3] }),
    ]);
  });

  it('reports a fractional item of an integer array at its index', () => {
    const error = refusal(draftOf({ arrayOfIntExample: [1, 2, 2.5] }));
    expect(error.body.errors[0]).toMatchObject({ code: 'InvalidField', field: 'objectTypeProperty.arrayOfIntExample[2]', invalidValue: 2.5 });
  });

  it('reports an invalid key with the offending value', () => {
    const error = refusal(draftWith(arrayTestType, { key: 'a' }));
    expect(error.body.errors).toEqual([
      {
        code: 'InvalidField',
        message: 'The value "a" is not valid for field key: key must be 2 to 256 characters of A-Z, a-z, 0-9, _ and -.',
        field: 'key',
        invalidValue: 'a',
      },
    ]);
  });

  it('treats an explicit null as an invalid value, not a missing one', () => {
    const error = refusal({ objectTypeProperty: null });
    expect(error.body.errors).toEqual([expect.objectContaining({ code: 'InvalidField', field: 'objectTypeProperty', invalidValue: null })]);
  });

  it('refuses a body that is not an object as an InvalidField of the body', () => {
    const error = refusal('raw string');
    expect(error.body.errors).toEqual([expect.objectContaining({ code: 'InvalidField', field: '', invalidValue: 'raw string' })]);
    expect(error.body.errors[0]!.message).toMatch(/^The value "raw string" is not valid for field body: /);
  });

  it('shortens long values in the message to 80 characters but keeps invalidValue whole', () => {
    const long = 'y'.repeat(300);
    const error = refusal(draftWith(arrayTestType, { key: long }));
    const entry = error.body.errors[0]!;
    expect(entry.invalidValue).toBe(long);
    const preview = /^The value (.*) is not valid for field key:/.exec(entry.message)![1]!;
    expect(preview).toHaveLength(80);
    expect(preview.endsWith('...')).toBe(true);
  });

  it('mixes codes in one answer, in issue order', () => {
    const error = refusal({
      foo: 1,
      objectTypeProperty: { ...arrayTestType, arrayOfUniqueIntExample: [3, 3], arrayOfObjectType: [{ integerExample: -1 }, {}] },
    });
    expect(error.body.errors.map((e) => [e.code, e.field ?? e.fields])).toEqual([
      ['DuplicateField', 'objectTypeProperty.arrayOfUniqueIntExample'],
      ['InvalidField', 'objectTypeProperty.arrayOfObjectType[0].integerExample'],
      ['RequiredField', 'objectTypeProperty.arrayOfObjectType[1].integerExample'],
      ['InvalidInput', ['foo']],
    ]);
  });
});

describe('validate(): root path prefix', () => {
  const Action = z.strictObject({ action: z.literal('changeSomeProperty'), someProperty: z.string() });

  it('prefixes field paths with the given root', () => {
    const error = refusal({ action: 'changeSomeProperty' }, Action, 'actions[3]');
    expect(error.body.errors).toEqual([
      { code: 'RequiredField', message: 'A value is required for field actions[3].someProperty.', field: 'actions[3].someProperty' },
    ]);
  });

  it('prefixes unknown field names with the given root', () => {
    const error = refusal({ action: 'changeSomeProperty', someProperty: 'x', extra: true }, Action, 'actions[0]');
    expect(error.body.errors[0]).toMatchObject({ code: 'InvalidInput', fields: ['actions[0].extra'] });
  });

  it('uses the root itself as the field when the value at the root is wrong', () => {
    const error = refusal(42, Action, 'actions[1]');
    expect(error.body.errors[0]).toMatchObject({ code: 'InvalidField', field: 'actions[1]', invalidValue: 42 });
  });
});
