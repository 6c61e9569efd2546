import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';

/** The context `cdk synth` and `cdk deploy` give the app: cdk.json's, its feature flags above all. */
const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }).context;

/** An app as the CDK CLI makes it from cdk.json, without bundling the functions (the template is what is tested). */
export const cdkApp = () => new App({ context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
