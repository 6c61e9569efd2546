import type { OutOfOrderPropertiesTestType } from '../domain/out-of-order-properties';

/**
 * The documents of POST /{projectKey}/resource/artificially-complex/path/…: one OutOfOrderPropertiesTestType per (project, uriParameterOne,
 * uriParameterTwo). The DynamoDB adapter is the one implementation.
 */
export interface ComplexPathStore {
  /**
   * Writes the document at the path, replacing whatever was there, in one atomic write.
   * `replaced` tells whether a document was there before (the write's own answer, so two
   * concurrent first writes see one `false` and one `true`).
   */
  put(projectKey: string, path: ComplexPath, document: OutOfOrderPropertiesTestType): Promise<{ replaced: boolean }>;
}

/** Where a document lives inside its project: the two path parameters, decoded. */
export interface ComplexPath {
  uriParameterOne: string;
  uriParameterTwo: string;
}
