import * as z from 'zod/mini';
import { RESOURCE_KEY_PATTERN } from './resource-address';

/**
 * The resource of this service: the Generic Resource Service's ObjectTestType plus the fields every resource of
 * the commercetools family carries (id, key, version, timestamps) and what update actions set.
 * These schemas are the single definition of the types: requests are validated with them, the
 * predicate and search engines read field types from their JSON Schema, and OpenAPI is built
 * from them.
 */

/** DynamoDB stores numbers of magnitude 1e-130 .. 1e126; anything outside is refused as input. */
const storableNumber = z.number().check(
  z.refine((n) => n === 0 || (Math.abs(n) < 1e125 && Math.abs(n) > 1e-129), {
    message: 'number is outside the storable range (magnitude between 1e-129 and 1e125, exclusive)',
  }),
);
/** zod's int() already limits integers to the safe range. */
const storableInteger = z.number().check(z.int());

const KEY_MESSAGE = 'key must be 2 to 256 characters of A-Z, a-z, 0-9, _ and -';
/** 2–256 characters of [A-Za-z0-9_-], unique per project (the length checked apart too, so the document shows it). */
export const ResourceKey = z.string().check(z.maxLength(256, { message: KEY_MESSAGE, abort: true }), z.regex(RESOURCE_KEY_PATTERN, { message: KEY_MESSAGE }));

/** The longest text a resource holds in a string field (someProperty, arrayOfStringExample's values). */
export const MAX_TEXT_LENGTH = 4096;
export const TextValue = z.string().check(z.maxLength(MAX_TEXT_LENGTH));

export const ObjectTypeElement = z.strictObject({
  integerExample: z.number().check(z.int(), z.minimum(0), z.maximum(64650)),
  integerExampleInt32: z.optional(z.number().check(z.int(), z.minimum(-2147483648), z.maximum(2147483647))),
});

export const ArrayTestType = z.strictObject({
  arrayOfIntExample: z.optional(z.array(storableInteger).check(z.minLength(1))),
  arrayOfUniqueIntExample: z.optional(
    z.array(storableInteger).check(
      z.minLength(1),
      z.superRefine((values, ctx) => {
        const seen = new Set<number>();
        for (const value of values) {
          if (seen.has(value)) {
            ctx.addIssue({ code: 'custom', message: 'duplicate value', params: { duplicateValue: value } });
            return;
          }
          seen.add(value);
        }
      }),
    ),
  ),
  arrayOfTwonumbersExample: z.optional(z.array(storableNumber).check(z.length(2))),
  arrayOfFloatExample: z.optional(z.array(storableNumber).check(z.length(1))),
  arrayOfNumberNoDefaultsExample: z.optional(z.array(storableNumber)),
  arrayOfStringExample: z.optional(z.array(TextValue)),
  arrayOfObjectType: z.optional(z.array(ObjectTypeElement)),
});
export type ArrayTestType = z.infer<typeof ArrayTestType>;

export const Version = z.number().check(z.int(), z.minimum(1));

/** Body of POST, PUT and PATCH on /{projectKey}/resource. */
export const ObjectTestTypeDraft = z.strictObject({ key: z.optional(ResourceKey), version: z.optional(Version), objectTypeProperty: ArrayTestType });
export type ObjectTestTypeDraft = z.infer<typeof ObjectTestTypeDraft>;

/** A stored resource as the API answers it. */
export const ObjectTestType = z.strictObject({
  id: z.uuid(),
  key: z.optional(ResourceKey),
  version: Version,
  createdAt: z.iso.datetime(),
  lastModifiedAt: z.iso.datetime(),
  objectTypeProperty: ArrayTestType,
  someProperty: z.optional(TextValue),
});
export type Resource = z.infer<typeof ObjectTestType>;

/** The Generic Resource Service's own ObjectTestType (`{version, objectTypeProperty}`), as the unionParameter of GET /{projectKey}/resource takes it. */
export const InterfaceObjectTestType = z.strictObject({ version: z.optional(z.number()), objectTypeProperty: ArrayTestType });

/**
 * Resource fields as JSON Schema, derived from ObjectTestType: what the predicate, sort and search
 * engines know of the resource. `npm run openapi` writes it to resource-json-schema.json, which the
 * engines read (resource-fields.ts), so no function converts schemas at cold start.
 */
export function deriveResourceJsonSchema(): object {
  return z.toJSONSchema(ObjectTestType, { io: 'output', unrepresentable: 'any' });
}
