import { describe, expect, it } from 'vitest';
import { AddressRanges, canonicalAddress, parseAddress } from './address-ranges.js';

describe('parseAddress and canonicalAddress', () => {
  it('gives an IPv4 client of a dual-stack socket its IPv4 form', () => {
    expect(canonicalAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(canonicalAddress(' 10.0.0.1 ')).toBe('10.0.0.1');
  });

  it('writes IPv6 in its short form', () => {
    expect(canonicalAddress('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
  });

  it('refuses what no socket or peer list says: shortened and numeric IPv4, names', () => {
    for (const text of ['127.1', '2130706433', 'localhost', '', '10.0.0.256']) {
      expect(parseAddress(text), text).toBeUndefined();
    }
    expect(canonicalAddress('localhost')).toBe('localhost');
  });
});

describe('AddressRanges', () => {
  const ranges = new AddressRanges(['127.0.0.1', '10.0.0.0/8', '::1', 'fc00::/7']);

  it('matches single addresses and CIDR ranges of both families', () => {
    expect(ranges.has('127.0.0.1')).toBe(true);
    expect(ranges.has('10.200.3.4')).toBe(true);
    expect(ranges.has('::1')).toBe(true);
    expect(ranges.has('fd12::7')).toBe(true);
    expect(ranges.has('127.0.0.2')).toBe(false);
    expect(ranges.has('11.0.0.1')).toBe(false);
    expect(ranges.has('2001:db8::1')).toBe(false);
  });

  it('matches an IPv4-mapped client as the IPv4 address it is', () => {
    expect(ranges.has('::ffff:10.1.2.3')).toBe(true);
    expect(new AddressRanges(['::ffff:192.168.0.0/112']).has('192.168.4.5')).toBe(true);
  });

  it('matches nothing that is no address', () => {
    expect(ranges.has('127.1')).toBe(false);
    expect(ranges.has('not an ip')).toBe(false);
  });

  it('refuses an entry that is no IP or range, naming it', () => {
    expect(() => new AddressRanges(['10.0.0.0/8', 'gateway'])).toThrow(/"gateway"/);
    expect(() => new AddressRanges(['10.0.0.0/33'])).toThrow();
  });
});
