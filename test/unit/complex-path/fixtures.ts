import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * test/fixtures/examples/out-of-order-properties-test-type.json, embedded verbatim so tests can
 * change copies of it; a test holds the two equal.
 */
export const EXAMPLE_FILE = fileURLToPath(
  new URL('../../fixtures/examples/out-of-order-properties-test-type.json', import.meta.url),
);
export const readExampleFile = (): unknown => JSON.parse(readFileSync(EXAMPLE_FILE, 'utf8'));

export const outOfOrderExample = {
  eigthProperty: 'Should display 8th (1st in RAML)',
  createdBy: { firstName: 'John', lastName: 'Doe' },
  ninthProperty: 'Should display 9th (3rd in RAML)',
  key: 'Should display 3rd (4th in RAML)',
  tenthProperty: 'Should display 10th (5th in RAML)',
  custom: 'Should display 16th (6th in RAML)',
  eleventhPropery: 'Should display 11th (7th in RAML)',
  id: 'Should display 1st (8th in RAML)',
  twelthProperty: 'Should display 12th (9th in RAML)',
  lastModifiedBy: { firstName: 'Jane', lastName: 'Doe' },
  thirteenthProperty: 'Should display 13th (11th in RAML)',
  lastModifiedAt: '2016-02-28T16:41:41.090Z',
  fourteenthProperty: 'Should display 14th (13th in RAML)',
  fifteenthProperty: 'Should display 15th (14th in definition)',
  createdAt: '2015-02-28T16:41:41.090Z',
  version: 'Should display 2nd (16th in RAML)',
};

/** A copy of the example with some fields replaced, or removed where the override is undefined. */
export function exampleWith(overrides: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...structuredClone(outOfOrderExample), ...overrides };
  for (const [field, value] of Object.entries(overrides)) if (value === undefined) delete body[field];
  return body;
}
