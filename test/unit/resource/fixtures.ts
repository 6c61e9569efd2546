import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The example bodies in test/fixtures/examples/, embedded here verbatim so tests can change copies
 * of them; a test in resource-schema.test.ts holds the two equal.
 */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../fixtures/examples/', import.meta.url));

export const objectTestTypeDraft = {
  objectTypeProperty: {
    arrayOfIntExample: [1, 2, 1, 3, 2, 3, 1],
    arrayOfUniqueIntExample: [1, 3, 5, 7],
    arrayOfTwonumbersExample: [3, 5],
    arrayOfFloatExample: [0.82],
    arrayOfNumberNoDefaultsExample: [10, 9, 8, 7, 6],
    arrayOfStringExample: ['dog', 'cat', 'bird'],
    arrayOfObjectType: [
      { integerExample: 777, integerExampleInt32: 1 },
      { integerExample: 30000, integerExampleInt32: 22 },
    ],
  },
};

export const arrayTestType = {
  arrayOfIntExample: [2, 4, 2, 6, 4, 6, 2],
  arrayOfUniqueIntExample: [2, 6, 10, 14],
  arrayOfTwonumbersExample: [6, 10],
  arrayOfFloatExample: [1.64],
  arrayOfNumberNoDefaultsExample: [20, 18, 16, 14, 12],
  arrayOfStringExample: ['dogdog', 'catcat', 'birdbird'],
  arrayOfObjectType: [
    { integerExample: 1554, integerExampleInt32: 2 },
    { integerExample: 60000, integerExampleInt32: 22 },
  ],
};

export const arrayTestTypeCustom1 = {
  arrayOfIntExample: [1, 2, 3],
  arrayOfUniqueIntExample: [4, 6],
  arrayOfTwonumbersExample: [6, 10],
  arrayOfFloatExample: [0.65],
  arrayOfNumberNoDefaultsExample: [30],
  arrayOfStringExample: ['custom', 'example', 'file', '1'],
  arrayOfObjectType: [
    { integerExample: 1, integerExampleInt32: 3 },
    { integerExample: 4, integerExampleInt32: 44 },
  ],
};

export const arrayTestTypeCustom2 = {
  arrayOfIntExample: [4, 5, 6],
  arrayOfUniqueIntExample: [8, 26],
  arrayOfTwonumbersExample: [12, 20],
  arrayOfFloatExample: [1.3],
  arrayOfNumberNoDefaultsExample: [60],
  arrayOfStringExample: ['custom', 'example', 'file', '2'],
  arrayOfObjectType: [
    { integerExample: 2, integerExampleInt32: 6 },
    { integerExample: 8, integerExampleInt32: 88 },
  ],
};

export const exampleResourceUpdate = {
  version: 1,
  actions: [{ action: 'doSomeThing' }, { action: 'changeSomeProperty', someProperty: 'any string' }],
};

/** The embedded copies by the file in test/fixtures/examples/ they come from. */
export const embeddedExamples: Record<string, unknown> = {
  'object-test-type-draft.json': objectTestTypeDraft,
  'array-test-type.json': arrayTestType,
  'array-test-type-custom-1.json': arrayTestTypeCustom1,
  'array-test-type-custom-2.json': arrayTestTypeCustom2,
  'example-resource-update.json': exampleResourceUpdate,
};

export function readExampleFile(name: string): unknown {
  return JSON.parse(readFileSync(`${EXAMPLES_DIR}${name}`, 'utf8'));
}

/** A deep copy that tests may mutate freely. */
export const copy = <T>(value: T): T => structuredClone(value);

/** A valid draft whose objectTypeProperty is replaced by (a copy of) the given one. */
export const draftWith = (objectTypeProperty: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...extra,
  objectTypeProperty: copy(objectTypeProperty),
});
