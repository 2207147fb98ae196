import { describe, expect, it } from 'vitest';
import { checkHandshake, toHeaderRecord } from './handshake.js';

const ours = { nethash: 'ab'.repeat(32), version: '3.0.0' };

describe('checkHandshake', () => {
  it('accepts our network with any version of our major', () => {
    const headers = toHeaderRecord({ nethash: ours.nethash, version: '3.9.1-next.2', port: 4000 });
    expect(checkHandshake(headers, ours)).toEqual({
      ok: true,
      headers: { nethash: ours.nethash, version: '3.9.1-next.2', port: 4000 },
    });
  });

  it('accepts a forger, which listens nowhere, without a port', () => {
    const headers = toHeaderRecord({ ...ours, port: 0, role: 'forger' });
    expect(checkHandshake(headers, ours)).toEqual({
      ok: true,
      headers: { ...ours, port: 0, role: 'forger' },
    });
  });

  it.each([
    [{ 'x-version': '3.0.0', 'x-port': '4000' }, /x-nethash is missing/],
    [
      { 'x-nethash': ours.nethash, 'x-version': '3.0.0', 'x-port': '0', 'x-role': 'relay' },
      /x-role must be "forger"/,
    ],
    [
      { 'x-nethash': 'cd'.repeat(32), 'x-version': '3.0.0', 'x-port': '0', 'x-role': 'forger' },
      /wrong network/,
    ],
    [{ 'x-nethash': 'cd'.repeat(32), 'x-version': '3.0.0', 'x-port': '4000' }, /wrong network/],
    [
      { 'x-nethash': ours.nethash, 'x-version': '4.0.0', 'x-port': '4000' },
      /incompatible version 4\.0\.0/,
    ],
    [{ 'x-nethash': ours.nethash, 'x-version': 'three', 'x-port': '4000' }, /not a semver version/],
    [
      { 'x-nethash': ours.nethash, 'x-version': '3.0.0', 'x-port': '70000' },
      /x-port must be a port/,
    ],
  ])('refuses %o with a reason', (headers, reason) => {
    const check = checkHandshake(headers, ours);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toMatch(reason);
  });
});
