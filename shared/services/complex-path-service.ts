import { abbreviate } from '../domain/abbreviate';
import { DomainError, InvalidInputError, ResourceNotFoundError } from '../domain/errors';
import { MAX_URI_PARAMETER_LENGTH, OutOfOrderPropertiesTestType, URI_PARAMETER_ONE_PREFIX, uriParameterFits, uriParameterOneOf } from '../domain/out-of-order-properties';
import type { ArrayTestType, Resource } from '../domain/resource';
import { isResourceId, isResourceKey } from '../domain/resource-address';
import { validate } from '../domain/validation';
import type { ComplexPath, ComplexPathStore } from '../store/complex-path-store';
import type { ResourceStore } from '../store/resource-store';

/** 201: the document is new at its path; 200: it replaced one; 203: the body's version is not the resource's. */
export type ComplexPathStatus = 200 | 201 | 203;

export interface ComplexPathAnswer {
  statusCode: ComplexPathStatus;
  /** The current `objectTypeProperty` of the resource the body names. */
  objectTypeProperty: ArrayTestType;
}

/** The path parameters as API Gateway hands them over: `uriParameterOne` is the whole segment. */
export interface ComplexPathSegments {
  uriParameterOne?: string;
  uriParameterTwo?: string;
}

/**
 * POST /{projectKey}/resource/artificially-complex/path/uri-parameter-one={one}/{two}:
 * check the path, validate the body, find the resource the body names (id, else key), store the
 * body under (project, one, two), answer that resource's `objectTypeProperty`. Nothing is stored
 * when the path is not served, the body is invalid or the resource does not exist.
 */
export class ComplexPathService {
  constructor(
    private readonly resources: ResourceStore,
    private readonly documents: ComplexPathStore,
  ) {}

  async post(projectKey: string, segments: ComplexPathSegments, body: unknown): Promise<ComplexPathAnswer> {
    const path = complexPathOf(projectKey, segments);
    const document = validate(OutOfOrderPropertiesTestType, body);
    const resource = await this.namedResource(projectKey, document);
    const { replaced } = await this.documents.put(projectKey, path, document);
    return { statusCode: !versionMatches(document.version, resource) ? 203 : replaced ? 200 : 201, objectTypeProperty: resource.objectTypeProperty };
  }

  /**
   * The resource named by `id`, or by `key` when the body has no id. Values no resource can carry
   * (an id that is not a UUID, a malformed key) are not found without asking the store.
   */
  private async namedResource(projectKey: string, document: OutOfOrderPropertiesTestType): Promise<Resource> {
    if (document.id !== undefined) {
      const id = document.id;
      const resource = isResourceId(id) ? await this.resources.get(projectKey, id) : undefined;
      if (!resource) throw new ResourceNotFoundError(`The resource with id '${abbreviate(id, 100)}'`);
      return resource;
    }
    const key = document.key!; // the schema requires id or key
    const resource = isResourceKey(key) ? await this.resources.getByKey(projectKey, key) : undefined;
    if (!resource) throw new ResourceNotFoundError(`The resource with key '${abbreviate(key, 100)}'`);
    return resource;
  }
}

/**
 * The segment `uri-parameter-one=<value>` is part of the route's path: without the prefix, or with
 * nothing after it, the path is not one this API serves (404 NotFound, as an unknown route).
 */
function complexPathOf(projectKey: string, segments: ComplexPathSegments): ComplexPath {
  const uriParameterOne = uriParameterOneOf(segments.uriParameterOne);
  const uriParameterTwo = segments.uriParameterTwo ?? '';
  if (uriParameterOne === undefined || uriParameterTwo === '') {
    throw new DomainError([
      {
        code: 'NotFound',
        message:
          `No endpoint matches POST /${projectKey}/resource/artificially-complex/path/${abbreviate(segments.uriParameterOne ?? '', 100)}/${abbreviate(uriParameterTwo, 100)}: ` +
          `the segment after /path/ must read ${URI_PARAMETER_ONE_PREFIX}<value>.`,
      },
    ]);
  }
  for (const [name, value] of [
    ['uriParameterOne', uriParameterOne],
    ['uriParameterTwo', uriParameterTwo],
  ] as const) {
    if (!uriParameterFits(value)) {
      throw new InvalidInputError(`The path parameter ${name} must be at most ${MAX_URI_PARAMETER_LENGTH} characters once URL-encoded.`);
    }
  }
  return { uriParameterOne, uriParameterTwo };
}

/** The body's `version` is a string; a body without one asks about no particular version. */
const versionMatches = (version: string | undefined, resource: Resource) => version === undefined || version === String(resource.version);
