import { Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/auth/caller-source';

/**
 * The optional per-source rate limit of the OAuth endpoints (`cdk deploy -c waf=true`).
 *
 * AWS WAF cannot be associated with an API Gateway HTTP API (only REST APIs, CloudFront, ALB,
 * AppSync, Cognito, App Runner, Verified Access, Amplify), so the web ACL sits on a CloudFront
 * distribution in front of the API. A CLOUDFRONT-scoped web ACL must live in us-east-1: it is
 * its own stack there (TokenRateLimitAcl), referenced across regions. Cost: docs/security.md.
 */

/** Requests per source address within any 5 minutes to `/oauth/*` before WAF answers 429. */
export const TOKEN_RATE_LIMIT = { requests: 100, windowSeconds: 300 };

/** The web ACL: one rate-based rule, per source address (IP), on paths under `/oauth/`. */
export class TokenRateLimitAcl extends Construct {
  readonly webAclArn: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const body = JSON.stringify({
      statusCode: 429,
      message: 'Too many token requests from this address. Please retry later.',
      errors: [{ code: 'TooManyRequests', message: 'Too many token requests from this address. Please retry later.' }],
    });
    const acl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'TokenRateLimit', sampledRequestsEnabled: true },
      customResponseBodies: { TooManyRequests: { contentType: 'APPLICATION_JSON', content: body } },
      rules: [
        {
          name: 'OAuthPerSourceRate',
          priority: 0,
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'TooManyRequests' } } },
          statement: {
            rateBasedStatement: {
              limit: TOKEN_RATE_LIMIT.requests,
              evaluationWindowSec: TOKEN_RATE_LIMIT.windowSeconds,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/oauth/',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'OAuthPerSourceRate', sampledRequestsEnabled: true },
        },
      ],
    });
    this.webAclArn = acl.attrArn;
  }
}

export interface ApiEdgeProps {
  api: IHttpApi;
  region: string;
  webAclArn: string;
  /** Shared with the token functions: proves that a viewer address came from this distribution. */
  edgeSecret: string;
}

/**
 * The CloudFront distribution in front of the API that carries the web ACL. Behind it, API
 * Gateway's sourceIp is an edge address, so a CloudFront Function passes the viewer's own address
 * (overwriting anything the caller sent) with the edge secret; the brute-force brake keys on it
 * only when the secret matches (shared/auth/caller-source.ts). Nothing is cached.
 */
export class ApiEdge extends Construct {
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    const viewerAddress = new EdgeFunction(this, 'ViewerAddress', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Passes the viewer address to the API, with the edge secret',
      code: FunctionCode.fromInline(
        `function handler(event) {
  var headers = event.request.headers;
  headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  headers['${EDGE_SECRET_HEADER}'] = { value: ${JSON.stringify(props.edgeSecret)} };
  return event.request;
}`,
      ),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'The API behind AWS WAF (per-source rate limit of /oauth/*)',
      webAclId: props.webAclArn,
      defaultBehavior: {
        origin: new HttpOrigin(`${props.api.apiId}.execute-api.${props.region}.amazonaws.com`, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
    });
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'The API serves clients worldwide by design; there is no country to exclude from it.' },
      { id: 'AwsSolutions-CFR3', reason: 'Every request is in the API access log (API Gateway) already; CloudFront standard logs would need ACLs on a log bucket that enforces bucket-owner ownership.' },
      { id: 'AwsSolutions-CFR4', reason: 'The distribution uses the default *.cloudfront.net certificate, whose minimum TLS version CloudFront fixes; TLS 1.2 as minimum needs a custom domain and an ACM certificate.' },
    );
  }
}
