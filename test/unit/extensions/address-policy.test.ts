import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  isAllowedAddressClass,
  parseIPv4,
  parseIPv6,
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
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['192.0.0.192', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
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
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fd00:ec2::254', 'metadata'],
  ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001::1', 'reserved'], // Teredo
  ['100::1', 'reserved'],
  ['::1.2.3.4', 'reserved'], // IPv4-compatible
  ['4000::1', 'reserved'], // outside global unicast
  // IPv6 addresses that embed an IPv4 address are judged by it
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::169.254.169.254', 'metadata'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['2002:808:808::1', 'public'],
  // Not addresses, or not in their canonical form: never treated as public
  ['localhost', 'invalid'],
  ['example.com', 'invalid'],
  ['0x7f.0.0.1', 'invalid'],
  ['017.0.0.1', 'invalid'],
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

describe('address parsing', () => {
  it('reads dotted quads strictly', () => {
    expect(parseIPv4('192.168.1.2')).toBe(0xc0a80102);
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
    for (const text of ['1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.256', '1.2.3.-1', ' 1.2.3.4', '1.2.3.4 ']) expect(parseIPv4(text)).toBeUndefined();
  });

  it('reads IPv6 with ::, an embedded IPv4 address and a zone id', () => {
    expect(parseIPv6('::1')).toBe(1n);
    expect(parseIPv6('1::')).toBe(1n << 112n);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toBe(0x0001_0002_0003_0004_0005_0006_0007_0008n);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toBe(0x0001_0002_0003_0004_0005_0006_0102_0304n);
    expect(parseIPv6('::ffff:1.2.3.4')).toBe(0xffff_0102_0304n);
    expect(parseIPv6('1::5:6:1.2.3.4')).toBe(0x0001_0000_0000_0000_0005_0006_0102_0304n);
    expect(parseIPv6('fe80::1%25eth0')).toBe((0xfe80n << 112n) | 1n);
    for (const text of ['1::2::3', ':::', '1.2.3.4', '12345::', 'g::1']) expect(parseIPv6(text)).toBeUndefined();
  });
});
