import { pageOf } from '../../domain/query';
import { ArrayTestType, InterfaceObjectTestType, ObjectTestType, ObjectTestTypeDraft } from '../../domain/resource';
import { named } from './schema-names';

/** The resource's schemas as the API names them; the domain's own zod schemas, never copies. */
export const ResourceSchema = named('ObjectTestType', ObjectTestType, 'A stored resource: the interface\'s ObjectTestType plus id, key, version, timestamps and `someProperty`.');
export const ResourceDraftSchema = named('ObjectTestTypeDraft', ObjectTestTypeDraft, 'Body of POST, PUT and PATCH on the collection. `key` names the resource to overwrite; `version`, when given, must match it.');
export const InterfaceObjectSchema = named('InterfaceObjectTestType', InterfaceObjectTestType, "The interface's own ObjectTestType (`{version, objectTypeProperty}`), as row 1's `unionParameter` takes it.");
export const ArrayTestTypeSchema = named('ArrayTestType', ArrayTestType, "The interface's ArrayTestType; every field optional, but constrained when present.");
export const PagedQueryResult = named('PagedQueryResult', pageOf(ObjectTestType), 'A page of resources.');
