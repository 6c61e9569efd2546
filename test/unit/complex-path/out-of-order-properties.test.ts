import { describe, expect, it } from 'vitest';
import {
  MAX_URI_PARAMETER_LENGTH,
  OutOfOrderPropertiesTestType,
  uriParameterFits,
  uriParameterOneOf,
} from '../../../shared/domain/out-of-order-properties.js';
import { ValidationError, validate } from '../../../shared/domain/validation.js';
import { toApiError } from '../../../shared/http/errors.js';
import { exampleWith, outOfOrderExample, readExampleFile } from './fixtures.js';

/** The errors validate() answers for the body; fails the test when it accepts it. */
function refusal(body: unknown) {
  try {
    validate(OutOfOrderPropertiesTestType, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const apiError = toApiError(error);
    expect(apiError.statusCode).toBe(400);
    expect(apiError.body).toEqual({ statusCode: 400, message: apiError.errors[0].message, errors: apiError.errors });
    return apiError.errors;
  }
  throw new Error('validate() accepted the body');
}

describe('example fixture', () => {
  it('the embedded copy equals test/fixtures/examples/out-of-order-properties-test-type.json', () => {
    expect(readExampleFile()).toEqual(outOfOrderExample);
  });
});

describe('OutOfOrderPropertiesTestType: valid bodies', () => {
  it('accepts the example unchanged, every field kept', () => {
    expect(validate(OutOfOrderPropertiesTestType, structuredClone(outOfOrderExample))).toEqual(outOfOrderExample);
  });

  it('needs nothing but an id, or nothing but a key', () => {
    expect(OutOfOrderPropertiesTestType.safeParse({ id: 'a' }).success).toBe(true);
    expect(OutOfOrderPropertiesTestType.safeParse({ key: 'a' }).success).toBe(true);
  });

  it.each(['2015-02-28T16:41:41Z', '2015-02-28T16:41:41.123456Z', '2015-02-28T16:41:41+02:00', '2016-02-29T00:00:00-05:30'])(
    'accepts the ISO 8601 date-time %s',
    (value) => {
      expect(OutOfOrderPropertiesTestType.safeParse(exampleWith({ createdAt: value, lastModifiedAt: value })).success).toBe(true);
    },
  );

  it('takes createdBy and lastModifiedBy with either name, or none', () => {
    expect(OutOfOrderPropertiesTestType.safeParse(exampleWith({ createdBy: { firstName: 'John' }, lastModifiedBy: {} })).success).toBe(true);
  });

  it('accepts empty strings (no bounds are given for these fields)', () => {
    expect(OutOfOrderPropertiesTestType.safeParse(exampleWith({ custom: '', version: '', eleventhPropery: '' })).success).toBe(true);
  });
});

describe('OutOfOrderPropertiesTestType: refusals in the commercetools shape', () => {
  it('requires id or key: RequiredField naming id', () => {
    expect(refusal(exampleWith({ id: undefined, key: undefined }))).toEqual([
      { code: 'RequiredField', message: 'A value is required for field id.', field: 'id' },
    ]);
    expect(refusal({})).toEqual([expect.objectContaining({ code: 'RequiredField', field: 'id' })]);
  });

  // Seconds and a zone (Z or an offset) are required, as in commercetools date-times.
  it.each(['2015-02-28', '2015-02-30T16:41:41.090Z', '2015-02-28 16:41:41Z', '2015-02-28T16:41:41', '2015-02-28T16:41Z', 'yesterday', '1424000000'])(
    'refuses the date-time %j with InvalidField',
    (value) => {
      expect(refusal(exampleWith({ createdAt: value }))).toEqual([
        expect.objectContaining({ code: 'InvalidField', field: 'createdAt', invalidValue: value }),
      ]);
    },
  );

  it('refuses a non-string date-time', () => {
    expect(refusal(exampleWith({ lastModifiedAt: 1424000000 }))).toEqual([
      expect.objectContaining({ code: 'InvalidField', field: 'lastModifiedAt', invalidValue: 1424000000 }),
    ]);
  });

  it('refuses createdBy with a number, naming the nested field', () => {
    expect(refusal(exampleWith({ createdBy: { firstName: 'John', lastName: 7 } }))).toEqual([
      expect.objectContaining({ code: 'InvalidField', field: 'createdBy.lastName', invalidValue: 7 }),
    ]);
  });

  it.each([['a string', 'John Doe'], ['an array', ['John', 'Doe']], ['null', null], ['a number', 3]])('refuses lastModifiedBy as %s', (_, value) => {
    expect(refusal(exampleWith({ lastModifiedBy: value }))).toEqual([
      expect.objectContaining({ code: 'InvalidField', field: 'lastModifiedBy', invalidValue: value }),
    ]);
  });

  it('refuses unknown fields at the top level and inside createdBy', () => {
    expect(refusal(exampleWith({ eleventhProperty: 'typo fixed' }))).toEqual([
      { code: 'InvalidInput', message: 'Unknown field eleventhProperty.', fields: ['eleventhProperty'] },
    ]);
    expect(refusal(exampleWith({ createdBy: { firstName: 'John', middleName: 'X' } }))).toEqual([
      expect.objectContaining({ code: 'InvalidInput', fields: ['createdBy.middleName'] }),
    ]);
  });

  it('refuses a numeric version: the example gives it as a string', () => {
    expect(refusal(exampleWith({ version: 1 }))).toEqual([expect.objectContaining({ code: 'InvalidField', field: 'version', invalidValue: 1 })]);
  });

  it.each(['id', 'key', 'custom', 'eigthProperty', 'eleventhPropery', 'fifteenthProperty'])('refuses a non-string %s', (field) => {
    expect(refusal(exampleWith({ [field]: { value: 'x' } }))).toEqual([expect.objectContaining({ code: 'InvalidField', field })]);
  });

  it('reports every problem at once, the missing id or key included', () => {
    const codes = refusal({ createdBy: { firstName: 1 }, unknown: true }).map((error) => `${error.code}:${error.field ?? error.fields}`);
    expect(codes.sort()).toEqual(['InvalidField:createdBy.firstName', 'InvalidInput:unknown', 'RequiredField:id']);
  });

  it.each([['null', null], ['an array', []], ['a string', 'body'], ['a number', 9]])('refuses %s as the body', (_, body) => {
    expect(refusal(body)).toEqual([expect.objectContaining({ code: 'InvalidField', field: '' })]);
  });
});

describe('uriParameterOneOf', () => {
  it('takes the value after the uri-parameter-one= prefix', () => {
    expect(uriParameterOneOf('uri-parameter-one=abc')).toBe('abc');
    expect(uriParameterOneOf('uri-parameter-one==x=y')).toBe('=x=y');
    expect(uriParameterOneOf('uri-parameter-one=a b/ü')).toBe('a b/ü');
  });

  it.each([undefined, '', 'abc', 'uri-parameter-one=', 'uri-parameter-one', 'URI-PARAMETER-ONE=abc', 'uri-parameter-two=abc', ' uri-parameter-one=abc'])(
    'serves no path for the segment %j',
    (segment) => {
      expect(uriParameterOneOf(segment)).toBeUndefined();
    },
  );
});

describe('uriParameterFits', () => {
  it('bounds the URL-encoded length', () => {
    expect(uriParameterFits('a'.repeat(MAX_URI_PARAMETER_LENGTH))).toBe(true);
    expect(uriParameterFits('a'.repeat(MAX_URI_PARAMETER_LENGTH + 1))).toBe(false);
    // 'ü' is two UTF-8 bytes, six characters encoded.
    expect(uriParameterFits('ü'.repeat(Math.floor(MAX_URI_PARAMETER_LENGTH / 6)))).toBe(true);
    expect(uriParameterFits('ü'.repeat(Math.floor(MAX_URI_PARAMETER_LENGTH / 6) + 1))).toBe(false);
  });

  it('refuses a lone surrogate, which no URL can carry', () => {
    expect(uriParameterFits('a\ud800b')).toBe(false);
  });
});
