import type { PeerReader, PeerSummary } from '@lni/p2p/contracts';
import { asValue } from 'awilix';
import type { Plugin } from '@lni/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerNode, type LedgerNode } from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';

// The peers the p2p plugin would know, as its `peers` service (PeerReader) shows them.
const peers: PeerSummary[] = [];
const peerReader: PeerReader = { list: () => peers, bans: () => [] };
const p2pStandIn: Plugin<object> = {
  name: 'p2p',
  register: ({ container }) => container.register({ peers: asValue(peerReader) }),
};
const peerAt = (height: number, ip: string): PeerSummary => ({
  ip,
  port: 4000,
  version: '3.0.0',
  height,
  latency: 3,
  ports: {},
});

describe.skipIf(postgresSkipReason)('/api/node/status and /api/node/syncing', () => {
  let node: LedgerNode;
  beforeAll(async () => {
    node = await startLedgerNode([{ plugin: p2pStandIn }]);
  }, 60_000);
  afterAll(() => node?.stop());

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const get = async (path: string): Promise<any> => (await fetch(`${node.api}${path}`)).json();
  const both = async () => ({
    status: (await get('/node/status')).data,
    syncing: (await get('/node/syncing')).data,
  });
  const epochSeconds = () =>
    Math.floor((Date.now() - Date.parse(node.milestones.at(1).epoch)) / 1000);

  it('a node without peers whose last block is old is stuck: not synced, behind by the slot clock', async () => {
    // Blocks in the first slots after the genesis block: a chain weeks old on testnet.
    await node.forge([]);
    const stale = await node.forge([]);
    const before = epochSeconds();
    const { status, syncing } = await both();
    const after = epochSeconds();
    const blocktime = node.milestones.at(stale.height).blocktime;
    const lowest = Math.floor((before - stale.timestamp) / blocktime);
    const highest = Math.floor((after - stale.timestamp) / blocktime);
    expect(status).toMatchObject({ synced: false, now: stale.height });
    expect(status.blocksCount).toBeGreaterThanOrEqual(lowest);
    expect(status.blocksCount).toBeLessThanOrEqual(highest);
    expect(lowest).toBeGreaterThan(3);
    expect(syncing).toMatchObject({ syncing: true, height: stale.height, id: stale.id });
    expect(syncing.blocks).toBeGreaterThanOrEqual(lowest);
    expect(syncing.blocks).toBeLessThanOrEqual(highest);
  });

  it('a node forging alone (no peers, a block in the current slot) is synced', async () => {
    const fresh = await node.forgeNow();
    const { status, syncing } = await both();
    expect(status).toMatchObject({ synced: true, now: fresh.height, blocksCount: 0 });
    expect(syncing).toEqual({ syncing: false, blocks: 0, height: fresh.height, id: fresh.id });
  });

  it('with peers, is synced only at the height most of them report', async () => {
    const height = (await get('/node/status')).data.now as number;
    peers.push(peerAt(height + 5, '10.0.0.1'), peerAt(height + 5, '10.0.0.2'));
    peers.push(peerAt(height, '10.0.0.3'));
    const behind = await both();
    expect(behind.status).toMatchObject({ synced: false, now: height, blocksCount: 5 });
    expect(behind.syncing).toMatchObject({ syncing: true, blocks: 5, height });
    peers.splice(0, peers.length, peerAt(height, '10.0.0.1'));
    const level = await both();
    expect(level.status).toMatchObject({ synced: true, blocksCount: 0 });
    expect(level.syncing).toMatchObject({ syncing: false, blocks: 0 });
    peers.length = 0;
  });
});
