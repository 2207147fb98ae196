import { describe, expect, it } from 'vitest';
import { checkNodeAddress } from './namespaces.js';

describe('node addresses', () => {
  it('are host addresses of 10.77.0.0/24 and nothing else', () => {
    expect(checkNodeAddress('10.77.0.2')).toBe('10.77.0.2');
    expect(checkNodeAddress('10.77.0.254')).toBe('10.77.0.254');
    for (const address of ['10.77.0.0', '10.77.0.255', '10.77.1.2', '127.0.0.1', '10.77.0.02x']) {
      expect(() => checkNodeAddress(address)).toThrow('is not a host address of 10.77.0.0/24');
    }
  });
});
