import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OutOfOrderPropertiesTestType } from '../../domain/out-of-order-properties';
import type { ComplexPath, ComplexPathStore } from '../complex-path-store';
import { translateEngineError } from './errors';
import { projectPartition } from './keys';

/**
 * The complex path's documents (POST /{projectKey}/resource/artificially-complex/path/…) in the service's table, in the project's partition beside its resources:
 *
 *   pk = PROJECT#<projectKey>   sk = COMPLEX#<encodeURIComponent(one)>#<encodeURIComponent(two)>
 *
 * Encoding each parameter keeps the separator unambiguous (`a#b`/`c` and `a`/`b#c` are different
 * items). The prefix sorts outside the `RESOURCE#` range, so resource queries never read these.
 */
export const COMPLEX_PATH_PREFIX = 'COMPLEX#';

export const complexPathKey = (projectKey: string, path: ComplexPath) => ({
  pk: projectPartition(projectKey),
  sk: `${COMPLEX_PATH_PREFIX}${encodeURIComponent(path.uriParameterOne)}#${encodeURIComponent(path.uriParameterTwo)}`,
});

export class DynamoDbComplexPathStore implements ComplexPathStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** One PutItem: `ReturnValues: ALL_OLD` answers whether it replaced an item, in the same round trip. */
  async put(projectKey: string, path: ComplexPath, document: OutOfOrderPropertiesTestType): Promise<{ replaced: boolean }> {
    const { Attributes } = await this.db
      .send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...complexPathKey(projectKey, path),
            type: 'complexPathDocument',
            uriParameterOne: path.uriParameterOne,
            uriParameterTwo: path.uriParameterTwo,
            document,
            writtenAt: this.now(),
          },
          ReturnValues: 'ALL_OLD',
        }),
      )
      .catch(translateEngineError);
    return { replaced: Attributes !== undefined };
  }
}
