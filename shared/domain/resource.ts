import * as z from 'zod';

/**
 * The resource of this service: the interface's ObjectTestType plus the fields every resource of
 * the commercetools family carries (id, key, version, timestamps) and what update actions set.
 * These schemas are the single definition of the types: requests are validated with them, the
 * predicate and search engines read field types from their JSON Schema, and OpenAPI is built
 * from them.
 */

/** DynamoDB stores numbers of magnitude 1e-130 .. 1e126; anything outside is refused as input. */
const storableNumber = z
  .number()
  .refine((n) => n === 0 || (Math.abs(n) < 1e125 && Math.abs(n) > 1e-129), {
    message: 'number is outside the storable range (magnitude between 1e-129 and 1e125, exclusive)',
  });
/** zod's int() already limits integers to the safe range. */
const storableInteger = z.number().int();

export const ObjectTypeElement = z.strictObject({
  integerExample: z.number().int().min(0).max(64650),
  integerExampleInt32: z.number().int().min(-2147483648).max(2147483647).optional(),
});

export const ArrayTestType = z.strictObject({
  arrayOfIntExample: z.array(storableInteger).min(1).optional(),
  arrayOfUniqueIntExample: z
    .array(storableInteger)
    .min(1)
    .superRefine((values, ctx) => {
      const seen = new Set<number>();
      for (const value of values) {
        if (seen.has(value)) {
          ctx.addIssue({ code: 'custom', message: 'duplicate value', params: { duplicateValue: value } });
          return;
        }
        seen.add(value);
      }
    })
    .optional(),
  arrayOfTwonumbersExample: z.array(storableNumber).length(2).optional(),
  arrayOfFloatExample: z.array(storableNumber).length(1).optional(),
  arrayOfNumberNoDefaultsExample: z.array(storableNumber).optional(),
  arrayOfStringExample: z.array(z.string().max(4096)).optional(),
  arrayOfObjectType: z.array(ObjectTypeElement).optional(),
});
export type ArrayTestType = z.infer<typeof ArrayTestType>;

/** 2–256 characters of [A-Za-z0-9_-], unique per project. */
export const ResourceKey = z.string().regex(/^[A-Za-z0-9_-]{2,256}$/, {
  message: 'key must be 2 to 256 characters of A-Z, a-z, 0-9, _ and -',
});

export const Version = z.number().int().min(1);

/** Body of POST, PUT and PATCH on /{projectKey}/resource. */
export const ObjectTestTypeDraft = z.strictObject({
  key: ResourceKey.optional(),
  version: Version.optional(),
  objectTypeProperty: ArrayTestType,
});
export type ObjectTestTypeDraft = z.infer<typeof ObjectTestTypeDraft>;

/** A stored resource as the API answers it. */
export const ObjectTestType = z.strictObject({
  id: z.uuid(),
  key: ResourceKey.optional(),
  version: Version,
  createdAt: z.iso.datetime(),
  lastModifiedAt: z.iso.datetime(),
  objectTypeProperty: ArrayTestType,
  someProperty: z.string().optional(),
});
export type Resource = z.infer<typeof ObjectTestType>;

/** The interface's own ObjectTestType (`{version, objectTypeProperty}`), as row 1's unionParameter takes it. */
export const InterfaceObjectTestType = z.strictObject({
  version: z.number().optional(),
  objectTypeProperty: ArrayTestType,
});

let jsonSchema: object | undefined;

/**
 * Resource fields as JSON Schema: what the predicate, sort and search engines know of the
 * resource. Made on first use, so functions that never query do not pay for it at cold start.
 */
export function resourceJsonSchema(): object {
  return (jsonSchema ??= z.toJSONSchema(ObjectTestType, { io: 'output', unrepresentable: 'any' }));
}
