import { CfnOutput } from 'aws-cdk-lib';
import { ApiMapping, DomainName, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';

export interface CustomDomainProps {
  api: IHttpApi;
  /** `api.<region>.<cloudProvider>.<domain>`. */
  hostName: string;
  /** With a hosted zone, the certificate is validated and the record created in it. */
  hostedZone?: { id: string; name: string };
  /** Without one, an existing ACM certificate for the host name (DNS is then yours to point). */
  certificateArn?: string;
}

/** The API under its own host name: a regional ACM certificate, the domain mapping, the DNS record. */
export class CustomDomain extends Construct {
  constructor(scope: Construct, id: string, props: CustomDomainProps) {
    super(scope, id);
    const zone = props.hostedZone && HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZone.id, zoneName: props.hostedZone.name });
    const certificate = zone
      ? new Certificate(this, 'Certificate', { domainName: props.hostName, validation: CertificateValidation.fromDns(zone) })
      : Certificate.fromCertificateArn(this, 'Certificate', requireArn(props.certificateArn));
    const domainName = new DomainName(this, 'DomainName', { domainName: props.hostName, certificate });
    new ApiMapping(this, 'Mapping', { api: props.api, domainName });
    if (zone) {
      new ARecord(this, 'Record', {
        zone,
        recordName: props.hostName,
        target: RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId)),
      });
    }
    new CfnOutput(scope, 'CustomDomainUrl', { value: `https://${props.hostName}`, description: 'The API under its custom host name' });
    if (!zone) {
      // No zone to write the record in: what the operator's own DNS must point the host name at.
      new CfnOutput(scope, 'CustomDomainTarget', {
        value: domainName.regionalDomainName,
        description: `Point ${props.hostName} here (CNAME, or an alias record in the hosted zone CustomDomainTargetZoneId)`,
      });
      new CfnOutput(scope, 'CustomDomainTargetZoneId', { value: domainName.regionalHostedZoneId, description: 'The hosted zone of CustomDomainTarget, for an alias record' });
    }
  }
}

function requireArn(arn: string | undefined): string {
  if (!arn) throw new Error('A custom domain needs -c hostedZoneId=<id> (and -c hostedZoneName=<zone>) or -c certificateArn=<arn>');
  return arn;
}
