import * as z from 'zod/mini';
import { JsonValueSchema } from '../../domain/extensions/binding';
import { OutOfOrderPropertiesTestType } from '../../domain/out-of-order-properties';
import { pageOf } from '../../domain/query';
import { ArrayTestType, InterfaceObjectTestType, ObjectTestType, ObjectTestTypeDraft } from '../../domain/resource';
import { MAX_UPDATE_ACTIONS, UpdateRequest, updateActions, type UpdateActionName } from '../../domain/update-actions';
import type { DocumentSchema } from './document-schema';

/** The resource's schemas as the API names them: the domain's own zod schemas, never copies. */

const PagedQueryResult = pageOf(ObjectTestType);

type UpdateActionSchema = (typeof updateActions)[UpdateActionName]['schema'];
const UpdateAction = z.discriminatedUnion('action', Object.values(updateActions).map((action) => action.schema) as [UpdateActionSchema, ...UpdateActionSchema[]]);

/** Each update action under its own name (`changeSomeProperty`: ChangeSomePropertyAction). */
const actionSchemas = Object.fromEntries(
  Object.entries(updateActions).map(([name, action]) => [`${name[0]!.toUpperCase()}${name.slice(1)}Action`, { schema: action.schema }]),
) as unknown as Record<`${Capitalize<UpdateActionName>}Action`, DocumentSchema>; // fromEntries forgets the names

export const resourceSchemas = {
  ObjectTestType: {
    schema: ObjectTestType,
    description: "A stored resource: the interface's ObjectTestType plus id, key, version, timestamps and `someProperty`.",
  },
  ObjectTestTypeDraft: {
    schema: ObjectTestTypeDraft,
    description: 'Body of POST, PUT and PATCH on the collection. `key` names the resource to overwrite; `version`, when given, must match it.',
  },
  InterfaceObjectTestType: {
    schema: InterfaceObjectTestType,
    description: "The interface's own ObjectTestType (`{version, objectTypeProperty}`), as the `unionParameter` of GET /{projectKey}/resource takes it.",
  },
  ArrayTestType: { schema: ArrayTestType, description: "The interface's ArrayTestType; every field optional, but constrained when present." },
  PagedQueryResult: { schema: PagedQueryResult, description: 'A page of resources.' },
  UpdateAction: {
    schema: UpdateAction,
    description: 'One update action; `setKey` (beyond the interface) sets the key, or removes it without `key`.',
  },
  ...actionSchemas,
  UpdateRequest: {
    schema: z.strictObject({ ...UpdateRequest.shape, actions: z.array(UpdateAction).check(z.maxLength(MAX_UPDATE_ACTIONS)) }),
    description: 'Body of POST /{projectKey}/resource/{id}: the expected version and the actions, applied in order, all or nothing.',
  },
  OutOfOrderPropertiesTestType: {
    schema: OutOfOrderPropertiesTestType,
    description: 'Body of the complex-path POST; it must name a resource by `id` or `key`.',
  },
  JsonValue: { schema: JsonValueSchema, description: 'Any JSON value.' },
} satisfies Record<string, DocumentSchema>;
