import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { searchIndexMigration, searchIndexVersions } from '../../shared/composition-root';
import { logger } from '../../shared/observability/logger';

/** The deploy's custom resources (a CDK Provider whose onEvent and isComplete handler are this function), by `ResourceProperties.Step`. */
export type SearchIndexDeployEvent = CloudFormationCustomResourceEvent & { PhysicalResourceId?: string };
export type SearchIndexDeployAnswer = { PhysicalResourceId: string; IsComplete: boolean };

/**
 * `migrate`, before the search function moves to this code's version of the index: a slice of the
 * migration, as long as `keepGoing` lets it (the Provider asks again until it is complete). `retire`,
 * after: the other versions dropped. A throw fails the deploy. Delete touches nothing.
 */
export async function searchIndexDeployStep(event: SearchIndexDeployEvent, keepGoing: () => boolean): Promise<SearchIndexDeployAnswer> {
  const step: unknown = event.ResourceProperties?.Step;
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId!, IsComplete: true };
  if (step === 'retire') {
    logger.info('search index versions retired', { retired: await searchIndexVersions().retire() });
    return { PhysicalResourceId: 'search-index-retired', IsComplete: true };
  }
  if (step !== 'migrate') throw new Error(`A search index deploy step is 'migrate' or 'retire', not ${JSON.stringify(step)}`);
  const { complete, indexed, rebuild } = await searchIndexMigration().migrate(keepGoing);
  logger.info('search index migrated', { complete, indexed, ...rebuild });
  return { PhysicalResourceId: 'search-index', IsComplete: complete };
}
