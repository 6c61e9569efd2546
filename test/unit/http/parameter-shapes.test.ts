import { describe, expect, it } from 'vitest';
import { InterfaceObjectTestType } from '../../../shared/domain/resource';
import { INTERFACE_OBJECT_TEST_TYPE } from '../../../shared/http/contract/declaring';

describe("the unionParameter of GET /{projectKey}/resource, shaped like the interface's ObjectTestType", () => {
  const accepts = (value: unknown) => INTERFACE_OBJECT_TEST_TYPE.accepts(value);

  it('types, required fields, unknown fields, lengths and bounds refused; the refinements are not its question', () => {
    expect(accepts({ objectTypeProperty: {} })).toBe(true);
    expect(accepts({ version: 3, objectTypeProperty: { arrayOfObjectType: [{ integerExample: 64650 }] } })).toBe(true);
    expect(accepts({ version: 3 })).toBe(false);
    expect(accepts({ objectTypeProperty: { nope: 1 } })).toBe(false);
    expect(accepts({ objectTypeProperty: {}, id: 'x' })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfFloatExample: [1, 2] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfIntExample: [1.5] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfIntExample: [] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfObjectType: [{ integerExample: 64651 }] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfStringExample: ['x'.repeat(4097)] } })).toBe(false);
    expect(accepts({ objectTypeProperty: { arrayOfObjectType: [{}] } })).toBe(false);
    expect(accepts(JSON.parse('{"objectTypeProperty":{},"__proto__":{}}'))).toBe(false);
    // Shaped right, refused by the refinements of a stored resource: a query parameter does not ask that.
    expect(accepts({ objectTypeProperty: { arrayOfUniqueIntExample: [1, 1] } })).toBe(true);
    expect(accepts({ objectTypeProperty: { arrayOfFloatExample: [1e200] } })).toBe(true);
    expect(InterfaceObjectTestType.safeParse({ objectTypeProperty: { arrayOfUniqueIntExample: [1, 1] } }).success).toBe(false);
    // A refinement refused beside a wrong shape: the shape decides.
    expect(accepts({ objectTypeProperty: { arrayOfUniqueIntExample: [1, 1], arrayOfIntExample: ['1'] } })).toBe(false);
  });
});
