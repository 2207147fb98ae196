import { describe, expect, it } from 'vitest';
import { statusLines } from './answer-lines.js';

describe('kernel status as lines', () => {
  it("says why a section could not be read, and shows other plugins' sections as JSON", () => {
    const lines = statusLines({
      node: { network: 'testnet', mode: 'relay', pid: 7, uptimeSeconds: 3725, plugins: ['p2p'] },
      chain: { height: 12, id: '42' },
      sync: { error: 'no answer within 3000 ms' } as never,
      'address-watch': { addresses: 3 },
      lastErrors: [],
    });
    expect(lines).toEqual([
      'node         testnet, relay mode, pid 7, up 1 h 2 min',
      'plugins      p2p',
      'height       12 (block 42)',
      'sync         unknown: no answer within 3000 ms',
      'address-watch {"addresses":3}',
      'last errors  none',
    ]);
  });

  it('prints the last warnings and errors one per line', () => {
    const lines = statusLines({
      lastErrors: [
        {
          level: 40,
          msg: 'Peer banned',
          time: '2026-11-27T22:00:23.165Z',
          plugin: 'p2p',
          ip: '10.0.0.9',
        },
      ],
    });
    expect(lines).toEqual(['last errors', '  22:00:23.165 WARN  p2p: Peer banned ip=10.0.0.9']);
  });
});
