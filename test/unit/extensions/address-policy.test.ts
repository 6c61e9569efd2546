import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  isAllowedAddressClass,
  type AddressClass,
} from '../../../shared/services/extension-forwarding/address-policy.js';

const cases: [string, AddressClass][] = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'linkLocal'],
  ['169.254.0.1', 'linkLocal'],
  ['192.0.0.192', 'reserved'],
  ['192.0.2.1', 'reserved'], // documentation
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['198.18.0.1', 'reserved'], // benchmarking
  ['192.88.99.1', 'reserved'], // 6to4 relay anycast
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456:789a::1', 'uniqueLocal'],
  ['fd00:ec2::254', 'metadata'],
  ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'], // documentation
  ['3fff::1', 'reserved'], // documentation
  ['2001::1', 'teredo'],
  ['2001:2::1', 'benchmarking'],
  ['100::1', 'discard'],
  ['::1.2.3.4', 'reserved'], // IPv4-compatible (deprecated)
  ['::8.8.8.8', 'reserved'],
  ['::808:808', 'reserved'],
  ['0:0:0:0:0:0:8.8.8.8', 'reserved'],
  ['4000::1', 'reserved'], // outside global unicast
  // IPv6 addresses that embed an IPv4 address are judged by it
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:0:8.8.8.8', 'rfc6145'], // IPv4-translated
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::169.254.169.254', 'metadata'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::1', 'rfc6052'], // local-use NAT64
  ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['2002:a00:1::1', 'private'],
  ['2002:808:808::1', 'public'],
  // Not addresses, or not in their canonical form: never treated as public
  ['localhost', 'invalid'],
  ['example.com', 'invalid'],
  ['0x7f.0.0.1', 'invalid'],
  ['017.0.0.1', 'invalid'],
  ['::ffff:0x7f.0.0.1', 'invalid'],
  ['2130706433', 'invalid'],
  ['127.1', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ['', 'invalid'],
];

describe('SSRF address classification', () => {
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('allows only public addresses in AWS, and loopback too in local mode', () => {
    const kinds = [...new Set(cases.map(([, kind]) => kind))];
    expect(kinds.filter((kind) => isAllowedAddressClass(kind, { localMode: false }))).toEqual(['public']);
    expect(kinds.filter((kind) => isAllowedAddressClass(kind, { localMode: true })).sort()).toEqual(['loopback', 'public']);
  });
});
