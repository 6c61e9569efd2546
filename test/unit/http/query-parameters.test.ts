import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../shared/domain/errors.js';
import { toApiError } from '../../../shared/http/errors.js';
import { QueryParameters } from '../../../shared/http/query-parameters.js';
import { checkParameters } from '../../../shared/http/parameters.js';

/** The 400 InvalidInput that `action` throws; fails the test otherwise. */
function invalidInput(action: () => unknown): { message: string } {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    const apiError = toApiError(error);
    expect(apiError.statusCode).toBe(400);
    expect(apiError.errors).toHaveLength(1);
    expect(apiError.errors[0].code).toBe('InvalidInput');
    expect(apiError.body).toEqual({ statusCode: 400, message: apiError.errors[0].message, errors: apiError.errors });
    return apiError.errors[0];
  }
  throw new Error('expected an InvalidInputError');
}

const q = (raw: string | undefined) => new QueryParameters(raw);

describe('QueryParameters: raw query string parsing', () => {
  it('is empty for an undefined or empty query string', () => {
    expect(q(undefined).entries.size).toBe(0);
    expect(q('').entries.size).toBe(0);
    expect(q('&&&').entries.size).toBe(0);
  });

  it('keeps repeated keys as separate values, in order', () => {
    const params = q('sort=createdAt+asc&sort=key+desc&limit=5');
    expect(params.all('sort')).toEqual(['createdAt asc', 'key desc']);
    expect(params.all('limit')).toEqual(['5']);
  });

  it('keeps commas inside values instead of splitting them', () => {
    expect(q('where=key+in+("a","b")').all('where')).toEqual(['key in ("a","b")']);
    expect(q('expand=a,b&expand=c').all('expand')).toEqual(['a,b', 'c']);
  });

  it('reads + as a space and %2B as a literal plus', () => {
    const params = q('text.en=red+shirt&where=a%2Bb');
    expect(params.all('text.en')).toEqual(['red shirt']);
    expect(params.all('where')).toEqual(['a+b']);
  });

  it('percent-decodes names and values, including UTF-8', () => {
    const params = q('var.na%6De=%C3%BCber%20alles&%3Dodd=%26');
    expect(params.all('var.name')).toEqual(['über alles']);
    expect(params.all('=odd')).toEqual(['&']);
  });

  it('gives a key without = the empty string as value', () => {
    expect(q('withTotal').all('withTotal')).toEqual(['']);
    expect(q('a=').all('a')).toEqual(['']);
  });

  it('splits at the first = only, so values may contain =', () => {
    expect(q('where=key%3D"x"&raw=a=b=c').all('raw')).toEqual(['a=b=c']);
    expect(q('where=key="x"').all('where')).toEqual(['key="x"']);
  });

  it('answers [] for a parameter that is absent', () => {
    expect(q('a=1').all('b')).toEqual([]);
  });

  // %ED%A0%80 and %ED%B0%80 would be lone surrogates (no UTF-8 encodes them): never a stored string.
  it.each(['%', 'a=%E0%A4%A', 'a=100%', '%zz=1', 'a=%C3', 'a=%ED%A0%80', '%ED%B0%80=1'])('refuses the badly percent-encoded query %j with 400 InvalidInput', (raw) => {
    const error = invalidInput(() => q(raw));
    expect(error.message).toMatch(/not correctly percent-encoded/);
  });
});

describe('QueryParameters.string', () => {
  it('returns the single value, or undefined when absent', () => {
    const params = q('key=abc');
    expect(params.string('key')).toBe('abc');
    expect(params.string('other')).toBeUndefined();
  });

  it('returns the empty string for a present but empty parameter', () => {
    expect(q('key=').string('key')).toBe('');
  });

  it('refuses a parameter given twice, naming it', () => {
    const error = invalidInput(() => q('limit=1&limit=2').string('limit'));
    expect(error.message).toBe("The query parameter 'limit' may be given only once.");
  });
});

describe('QueryParameters.number', () => {
  it('returns undefined when absent, never a default', () => {
    expect(q('').number('limit', { integer: true, min: 0, max: 500 })).toBeUndefined();
  });

  it('parses integers, decimals, negatives and exponents', () => {
    const params = q('a=20&b=0.5&c=-3&d=1e3&e=%2B7');
    expect(params.number('a')).toBe(20);
    expect(params.number('b')).toBe(0.5);
    expect(params.number('c')).toBe(-3);
    expect(params.number('d')).toBe(1000);
    expect(params.number('e')).toBe(7);
  });

  it.each(['abc', '', '+', '1,5', 'NaN', 'Infinity', '-Infinity', '1e999', '12abc'])('refuses %j as a number, naming the parameter', (text) => {
    const raw = `floatParameter=${encodeURIComponent(text)}`;
    const error = invalidInput(() => q(raw).number('floatParameter'));
    expect(error.message).toContain("'floatParameter'");
    expect(error.message).toContain('must be a number');
  });

  it('refuses a value that is only whitespace', () => {
    invalidInput(() => q('limit=%20%20').number('limit'));
  });

  it('refuses a fractional value where an integer is wanted', () => {
    const error = invalidInput(() => q('limit=2.5').number('limit', { integer: true }));
    expect(error.message).toBe("The query parameter 'limit' must be an integer, got '2.5'.");
  });

  it.each(['9007199254740992', '9007199254740993', '-9007199254740993', '1e20', '1E3', '2e0', '12345678901234567890'])(
    'refuses %j where an integer is wanted: beyond 2^53 − 1, or in exponent form (400 InvalidInput)',
    (text) => {
      const error = invalidInput(() => q(`variant=${text}`).number('variant', { integer: true, min: 1 }));
      expect(error.message).toContain("'variant' must be an integer");
      expect(checkRefusal(text)).toBe(400);
    },
  );

  it('takes the largest safe integer, 2^53 − 1', () => {
    expect(q('variant=9007199254740991').number('variant', { integer: true })).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('accepts a whole decimal such as 3.0 as an integer', () => {
    expect(q('limit=3.0').number('limit', { integer: true })).toBe(3);
  });

  it('accepts the bounds themselves', () => {
    expect(q('limit=0').number('limit', { integer: true, min: 0, max: 500 })).toBe(0);
    expect(q('limit=500').number('limit', { integer: true, min: 0, max: 500 })).toBe(500);
  });

  it('refuses values beyond max or below min, naming the range', () => {
    const above = invalidInput(() => q('limit=501').number('limit', { integer: true, min: 0, max: 500 }));
    expect(above.message).toBe("The query parameter 'limit' must be an integer from 0 to 500, got '501'.");
    const below = invalidInput(() => q('offset=-1').number('offset', { integer: true, min: 0, max: 10000 }));
    expect(below.message).toBe("The query parameter 'offset' must be an integer from 0 to 10000, got '-1'.");
  });

  it('names an open side of the range with an infinity sign', () => {
    expect(invalidInput(() => q('x=-1').number('x', { min: 0 })).message).toBe("The query parameter 'x' must be a number from 0 to ∞, got '-1'.");
    expect(invalidInput(() => q('x=11').number('x', { max: 10 })).message).toBe("The query parameter 'x' must be a number from -∞ to 10, got '11'.");
  });

  it('names the largest exact integer as the open end of an integer range: a longer one is not in range', () => {
    const tooLong = invalidInput(() => q('variant=9007199254740993').number('variant', { integer: true, min: 1 }));
    expect(tooLong.message).toBe("The query parameter 'variant' must be an integer from 1 to 9007199254740991, got '9007199254740993'.");
    expect(invalidInput(() => q('x=5').number('x', { integer: true, max: 3 })).message).toBe(
      "The query parameter 'x' must be an integer from -9007199254740991 to 3, got '5'.",
    );
  });

  it('refuses a numeric parameter given twice', () => {
    expect(invalidInput(() => q('limit=1&limit=1').number('limit')).message).toMatch(/may be given only once/);
  });
});

describe('QueryParameters.boolean', () => {
  it('reads exactly true and false', () => {
    const params = q('withTotal=false&staged=true');
    expect(params.boolean('withTotal')).toBe(false);
    expect(params.boolean('staged')).toBe(true);
  });

  it('returns undefined when absent', () => {
    expect(q('').boolean('withTotal')).toBeUndefined();
  });

  it.each(['TRUE', 'False', '1', '0', 'yes', '', ' true'])('refuses %j, naming the parameter', (text) => {
    const error = invalidInput(() => q(`withTotal=${encodeURIComponent(text)}`).boolean('withTotal'));
    expect(error.message).toBe(`The query parameter 'withTotal' must be true or false, got '${text}'.`);
  });
});

describe('QueryParameters.matching', () => {
  it('returns the parameters whose names match, with all their values', () => {
    const params = q('var.a=1&var.b=2&var.a=3&where=x&text.en=hi');
    expect(params.matching(/^var\./)).toEqual([
      ['var.a', ['1', '3']],
      ['var.b', ['2']],
    ]);
  });

  it('matches decoded names', () => {
    expect(q('text.de%2DDE=hallo').matching(/^text\./)).toEqual([['text.de-DE', ['hallo']]]);
  });

  it('returns [] when nothing matches', () => {
    expect(q('limit=1').matching(/^var\./)).toEqual([]);
  });
});

describe('QueryParameters.number refuses what is not a plain decimal', () => {
  it.each(['0x1F', '0o17', '0b11', ' 5 ', '-0x10'])('refuses %j', (text) => {
    expect(() => q(`limit=${encodeURIComponent(text)}`).number('limit', { integer: true })).toThrow(/limit/);
  });
});

/** What the route table's declared-parameter check answers for an integer parameter. */
function checkRefusal(text: string): number | undefined {
  try {
    checkParameters({ limit: { type: 'integer' } }, q(`limit=${encodeURIComponent(text)}`));
    return undefined;
  } catch (error) {
    return (error as { statusCode?: number }).statusCode;
  }
}

describe('declared string parameters with a maxLength', () => {
  it('take values up to it and refuse longer ones, naming the limit', () => {
    const specs = { where: { type: 'string', repeatable: true, maxLength: 10 } } as const;
    expect(() => checkParameters(specs, q(`where=${'x'.repeat(10)}&where=y`))).not.toThrow();
    expect(() => checkParameters(specs, q(`where=y&where=${'x'.repeat(11)}`))).toThrow(
      expect.objectContaining({ statusCode: 400, message: `The query parameter 'where' must be a string of at most 10 characters, got '${'x'.repeat(11)}'.` }),
    );
  });
});
