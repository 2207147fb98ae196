import { createLogger, EventBus } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import { p2pConfigSchema, p2pEnvironment } from '../config.js';
import { MemoryChain } from '../testing/memory-chain.js';
import { PeerRepository } from './peer-repository.js';
import type { PeerObservation } from './peer.js';
import { PenaltyBox } from './penalty-box.js';

const logger = createLogger({ level: 'fatal' });
const observation: PeerObservation = {
  version: '3.9.1',
  height: 5,
  latency: 3,
  ports: {},
  header: new MemoryChain({ height: 5 }).status().header,
  forgingAllowed: true,
  currentSlot: 5,
  forked: false,
};

function repository(maxSameSubnetPeers: number): PeerRepository {
  const { value: options } = p2pConfigSchema.validate({});
  if (!options) throw new Error('the p2p defaults do not validate');
  const penalties = new PenaltyBox({ policy: options.penalties, exempt: [], logger });
  return new PeerRepository({
    penalties,
    maxPeers: 100,
    maxSameSubnetPeers,
    events: new EventBus(logger),
    logger,
  });
}

describe('maxSameSubnetPeers (ARK: at most so many peers of one IPv4 /24)', () => {
  it('refuses a new peer whose /24 already has the most, and takes one from another /24', () => {
    const peers = repository(2);
    expect(peers.upsert('10.0.0.1', 4000, observation)).toBe('added');
    expect(peers.upsert('10.0.0.2', 4000, observation)).toBe('added');
    expect(peers.subnetIsFull('10.0.0.3')).toBe(true);
    expect(peers.upsert('10.0.0.3', 4000, observation)).toBe('subnet');
    // One operator's IP on several ports is several peers of that /24.
    expect(peers.upsert('10.0.0.1', 4001, observation)).toBe('subnet');
    expect(peers.upsert('10.0.1.3', 4000, observation)).toBe('added');
    // A peer already there is refreshed; one leaving makes room.
    expect(peers.upsert('10.0.0.2', 4000, observation)).toBe('updated');
    peers.remove('10.0.0.2', 4000, 'connection lost');
    expect(peers.upsert('10.0.0.3', 4000, observation)).toBe('added');
  });

  it('lets seeds in (as ARK does), and never limits IPv6 or loopback', () => {
    const peers = repository(1);
    expect(peers.upsert('10.0.0.1', 4000, observation)).toBe('added');
    expect(peers.upsert('10.0.0.2', 4000, observation, { seed: true })).toBe('added');
    expect(peers.upsert('::ffff:10.0.0.3', 4000, observation)).toBe('subnet');
    for (const port of [4000, 4010, 4020]) {
      expect(peers.upsert('127.0.0.1', port, observation)).toBe('added');
    }
    expect(peers.upsert('2001:db8::1', 4000, observation)).toBe('added');
    expect(peers.upsert('2001:db8::2', 4000, observation)).toBe('added');
  });

  it("is an option with ARK's name and default, and ARK's variable", () => {
    expect(p2pConfigSchema.validate({}).value?.maxSameSubnetPeers).toBe(5);
    expect(p2pEnvironment.CORE_P2P_MAX_PEERS_SAME_SUBNET).toBe('maxSameSubnetPeers');
    expect(p2pConfigSchema.validate({ maxSameSubnetPeers: -1 }).error?.message).toMatch(
      /maxSameSubnetPeers/,
    );
  });
});
