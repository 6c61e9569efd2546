import { Logger } from '@aws-lambda-powertools/logger';

/** One structured logger per function instance; handlers add the request's keys per call. */
export const logger = new Logger({ serviceName: 'generic-resource-service' });
