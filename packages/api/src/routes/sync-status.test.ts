import { describe, expect, it } from 'vitest';
import type { PeerSummary } from '@lni/p2p/contracts';
import { syncStatus } from './sync-status.js';

const peer = (height: number): PeerSummary => ({
  ip: '10.0.0.1',
  port: 4000,
  version: '3.0.0',
  height,
  latency: 5,
  ports: {},
});
const last = { height: 49, timestamp: 1_000 };

describe('syncStatus', () => {
  it('alone, is synced while the last block is younger than three block times', () => {
    for (const age of [0, 8, 23]) {
      expect(syncStatus({ lastBlock: last, peers: [], blocktime: 8, now: 1_000 + age })).toEqual({
        synced: true,
        behind: 0,
      });
    }
  });

  it('alone, is not synced once three block times passed, behind by the slots gone by', () => {
    expect(syncStatus({ lastBlock: last, peers: [], blocktime: 8, now: 1_024 })).toEqual({
      synced: false,
      behind: 3,
    });
    // The node: height 49, two minutes behind its network.
    expect(syncStatus({ lastBlock: last, peers: [], blocktime: 8, now: 1_120 })).toEqual({
      synced: false,
      behind: 15,
    });
  });

  it('with peers, is synced at the height most of them report, however old its block', () => {
    const old = { lastBlock: last, blocktime: 8, now: 999_999 };
    expect(syncStatus({ ...old, peers: [peer(49), peer(49), peer(60)] })).toEqual({
      synced: true,
      behind: 0,
    });
    expect(syncStatus({ ...old, peers: [peer(54), peer(54), peer(40)] })).toEqual({
      synced: false,
      behind: 5,
    });
  });

  it('without a block, is not synced', () => {
    expect(syncStatus({ lastBlock: undefined, peers: [], blocktime: 8, now: 5 })).toEqual({
      synced: false,
      behind: 0,
    });
  });
});
