import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, it } from 'vitest';
import { GenericResourceServiceStack } from '../../infra/stack';
import { cdkApp } from '../support/cdk-app';

const synth = (customDomain: ConstructorParameters<typeof GenericResourceServiceStack>[2]['customDomain']) =>
  Template.fromStack(
    new GenericResourceServiceStack(cdkApp(), 'Domain', {
      region: 'europe-west1',
      cloudProvider: 'gcp',
      env: { account: '123456789012', region: 'eu-west-1' },
      customDomain,
    }),
  );

describe('optional custom domain api.<region>.<cloudProvider>.<domain>', () => {
  it('with a hosted zone: a DNS-validated certificate, the domain mapping and an alias record', () => {
    const template = synth({ domain: 'example.com', hostedZone: { id: 'Z123', name: 'example.com' } });
    template.hasResourceProperties('AWS::CertificateManager::Certificate', { DomainName: 'api.europe-west1.gcp.example.com', ValidationMethod: 'DNS' });
    template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'api.europe-west1.gcp.example.com' });
    template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
    template.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'api.europe-west1.gcp.example.com.', Type: 'A', HostedZoneId: 'Z123' });
  });

  it('with an existing certificate: the mapping only, no record', () => {
    const template = synth({ domain: 'example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' });
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 1);
    template.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
    // What the operator's own DNS points the host name at.
    template.hasOutput('CustomDomainTarget', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'RegionalDomainName'] } });
    template.hasOutput('CustomDomainTargetZoneId', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'RegionalHostedZoneId'] } });
  });

  it('without a domain: none of it', () => {
    const template = synth(undefined);
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });
});
