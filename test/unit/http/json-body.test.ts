import { describe, expect, it } from 'vitest';
import { JSON_DEPTH_LIMIT, jsonBodyProblem } from '../../../shared/http/middleware/json-body';

const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
/** A parsed body, as the JSON parser hands it over: `\ud800` escapes in JSON text parse to lone surrogates. */
const parsed = (text: string): unknown => JSON.parse(text);

describe('jsonBodyProblem', () => {
  it('passes well-formed bodies, astral characters included', () => {
    expect(jsonBodyProblem(parsed('{"a":"😀","😀":["x\\ud83d\\ude00y",{"é":null}],"n":1,"b":true}'))).toBeUndefined();
    expect(jsonBodyProblem('text')).toBeUndefined();
    expect(jsonBodyProblem(null)).toBeUndefined();
    expect(jsonBodyProblem(undefined)).toBeUndefined();
  });

  it('refuses nesting beyond the limit, as before', () => {
    expect(jsonBodyProblem(nested(JSON_DEPTH_LIMIT))).toBeUndefined();
    expect(jsonBodyProblem(nested(JSON_DEPTH_LIMIT + 1))).toBe(`The body nests deeper than ${JSON_DEPTH_LIMIT} levels.`);
  });

  it('refuses a lone surrogate in a string, named by its escape and where it is', () => {
    expect(jsonBodyProblem(parsed('{"objectTypeProperty":{"arrayOfStringExample":["ok","a\\ud800b"]}}'))).toBe(
      'The body contains a lone surrogate (\\ud800) at objectTypeProperty.arrayOfStringExample[1]: not valid UTF-8 text.',
    );
    expect(jsonBodyProblem(parsed('[{"x":"\\udc00"}]'))).toBe('The body contains a lone surrogate (\\udc00) at [0].x: not valid UTF-8 text.');
    expect(jsonBodyProblem(parsed('"\\ud83d"'))).toBe('The body contains a lone surrogate (\\ud83d) at the top level: not valid UTF-8 text.');
  });

  it('refuses a pair in the wrong order (a low then a high surrogate) and half a pair at a string end', () => {
    expect(jsonBodyProblem(parsed('{"k":"\\ude00\\ud83d"}'))).toMatch(/lone surrogate \(\\ude00\) at k:/);
    expect(jsonBodyProblem(parsed('{"k":"😀\\ud83d"}'))).toMatch(/lone surrogate \(\\ud83d\) at k:/);
  });

  it('refuses a lone surrogate in a property name, naming the object that holds it', () => {
    expect(jsonBodyProblem(parsed('{"objectTypeProperty":{"a\\udfffb":1}}'))).toBe(
      'The body contains a lone surrogate (\\udfff) in a property name at objectTypeProperty: not valid UTF-8 text.',
    );
    expect(jsonBodyProblem(parsed('{"\\ud800":1}'))).toBe('The body contains a lone surrogate (\\ud800) in a property name at the top level: not valid UTF-8 text.');
  });

  it('keeps the message short when the path is long', () => {
    const problem = jsonBodyProblem({ ['k'.repeat(5_000)]: '\ud800' })!;
    expect(problem).toMatch(/^The body contains a lone surrogate \(\\ud800\) at k{97}\.\.\.: not valid UTF-8 text\.$/);
  });
});
