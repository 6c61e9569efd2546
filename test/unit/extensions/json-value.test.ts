import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonValueSchema } from '../../../shared/domain/extensions/binding';
import { isJsonValue } from '../../../shared/domain/json-value';

/** PUT /{projectKey}/resource/json-serializable-primitive-type stores any JSON value; its plain check must accept exactly what the schema (z.json()) accepts. */
describe('isJsonValue', () => {
  const schemaAccepts = (value: unknown) => JsonValueSchema.safeParse(value).success;

  it('the same verdict as the schema on parsed JSON bodies, numbers out of range included', () => {
    const outOfRange = fc.constantFrom('1e400', '-1e400', '1e308', '123456789e300');
    const body = fc.tuple(fc.jsonValue({ maxDepth: 4 }), outOfRange, fc.nat(3)).map(([value, number, where]) => {
      const text = JSON.stringify(value);
      // Some bodies get a number beyond a double's range, nested or on top.
      return where === 0 ? `{"n":[${number}],"v":${text}}` : where === 1 ? number : text;
    });
    fc.assert(
      fc.property(body, (text) => {
        const parsed: unknown = JSON.parse(text);
        return isJsonValue(parsed) === schemaAccepts(parsed);
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuses what no JSON body holds, as the schema does', () => {
    for (const value of [undefined, Number.NaN, Infinity, -Infinity, () => 1, Symbol('x'), 1n, [1, undefined], { a: Infinity }, new Date(0), new Map()]) {
      expect(isJsonValue(value), String(value)).toBe(false);
      expect(schemaAccepts(value), String(value)).toBe(false);
    }
    for (const value of ['', 0, -0, false, null, [], {}, { a: [1, 'x', null, { b: true }] }]) {
      expect(isJsonValue(value), JSON.stringify(value)).toBe(true);
      expect(schemaAccepts(value), JSON.stringify(value)).toBe(true);
    }
  });
});
