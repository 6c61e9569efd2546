import { Metrics } from '@aws-lambda-powertools/metrics';

/** Per-route request metrics, written as CloudWatch Embedded Metric Format (EMF) log lines. */
export const metrics = new Metrics({ namespace: 'GenericResourceService', serviceName: 'generic-resource-service' });
