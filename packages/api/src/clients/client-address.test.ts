import { describe, expect, it } from 'vitest';
import { AddressRanges } from '@lni/kernel';
import { ClientAddress } from './client-address.js';

describe('ClientAddress', () => {
  it('is the peer when no proxy is trusted (the default), whatever the header says', () => {
    const clients = new ClientAddress([]);
    expect(clients.resolve('10.0.0.5', '203.0.113.7')).toBe('10.0.0.5');
    expect(clients.resolve('10.0.0.5', undefined)).toBe('10.0.0.5');
  });

  it('walks a chain of trusted proxies from the right to the first address that is not one', () => {
    const clients = new ClientAddress(['10.0.0.0/8', '192.0.2.9']);
    // client -> CDN edge 192.0.2.9 -> HAProxy 10.0.0.2 -> this node
    expect(clients.resolve('10.0.0.2', '203.0.113.7, 192.0.2.9')).toBe('203.0.113.7');
    // Whatever the client wrote itself stays left of its own address and is never reached.
    expect(clients.resolve('10.0.0.2', '1.1.1.1, 10.0.0.3, 203.0.113.7, 192.0.2.9')).toBe(
      '203.0.113.7',
    );
    // Every hop trusted: the farthest one is the best known client.
    expect(clients.resolve('10.0.0.2', '10.1.1.1,10.0.0.3')).toBe('10.1.1.1');
    expect(clients.resolve('10.0.0.2', undefined)).toBe('10.0.0.2');
  });

  it('ignores the header of a peer that is no trusted proxy, so a client cannot spoof', () => {
    const clients = new ClientAddress(['10.0.0.2']);
    expect(clients.resolve('203.0.113.7', '10.0.0.2')).toBe('203.0.113.7');
    expect(clients.resolve('203.0.113.7', '198.51.100.1, 10.0.0.2')).toBe('203.0.113.7');
    expect(clients.resolve('10.0.0.3', '198.51.100.1')).toBe('10.0.0.3');
  });

  it('stops at a hop that is no address, at the last one it could check', () => {
    const clients = new ClientAddress(['10.0.0.0/8']);
    expect(clients.resolve('10.0.0.2', 'unknown, 10.0.0.3')).toBe('10.0.0.3');
    expect(clients.resolve('10.0.0.2', '127.1')).toBe('10.0.0.2');
    expect(clients.resolve('10.0.0.2', '')).toBe('10.0.0.2');
  });

  it('reads IPv6 peers, hops and ranges, and answers in the compressed form', () => {
    const clients = new ClientAddress(['fd00:1::/64']);
    expect(clients.resolve('fd00:1::2', '2001:db8:0:0:0:0:0:7, fd00:1::3')).toBe('2001:db8::7');
    expect(clients.resolve('fd00:2::2', '2001:db8::7')).toBe('fd00:2::2');
    expect(clients.resolve('FD00:1:0:0::2', ' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('takes an IPv4-mapped peer or hop (a dual-stack socket) as the IPv4 address it is', () => {
    const clients = new ClientAddress(['172.30.254.0/24']);
    expect(clients.resolve('::ffff:172.30.254.2', '203.0.113.7')).toBe('203.0.113.7');
    expect(clients.resolve('::ffff:203.0.113.7', '198.51.100.1')).toBe('203.0.113.7');
    expect(clients.resolve('172.30.254.2', '::ffff:203.0.113.8')).toBe('203.0.113.8');
    // A range written in its mapped form holds the IPv4 peers too.
    const mapped = new ClientAddress(['::ffff:172.30.254.0/120']);
    expect(mapped.resolve('172.30.254.2', '203.0.113.7')).toBe('203.0.113.7');
    expect(mapped.resolve('172.30.253.2', '203.0.113.7')).toBe('172.30.253.2');
  });
});

describe('AddressRanges', () => {
  it('holds single addresses and CIDR ranges of both families, and nothing that is no address', () => {
    const ranges = new AddressRanges(['127.0.0.1', '::1', '10.1.0.0/16', '2001:db8::/32']);
    expect(
      ['127.0.0.1', '::ffff:127.0.0.1', '::1', '10.1.255.3', '2001:db8:5::1'].map((ip) =>
        ranges.has(ip),
      ),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['127.0.0.2', '10.2.0.1', '2001:db9::1', 'localhost', ''].map((ip) => ranges.has(ip)),
    ).toEqual([false, false, false, false, false]);
    expect(new AddressRanges([]).has('127.0.0.1')).toBe(false);
  });

  it('refuses an entry that is no address or range', () => {
    expect(() => new AddressRanges(['10.0.0.0/33'])).toThrow();
    expect(() => new AddressRanges(['haproxy'])).toThrow();
  });
});
