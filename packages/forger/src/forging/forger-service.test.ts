import { createLogger } from '@lni/kernel';
import { keysFromPassphrase } from '@lni/crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BlockTemplate } from './block-assembler.js';
import { ForgerService } from './forger-service.js';
import { NetworkStatus } from '@lni/p2p/wire';
import type { NetworkState, RelayPort, RoundInfo } from './relay-port.js';

const ours = keysFromPassphrase('our delegate');
const ourKey = ours.publicKey.toString('hex');

// Stands for a relay's internal endpoints; the real ones are exercised end to end in test/.
class ScriptedRelay implements RelayPort {
  posted: string[] = [];
  failing = false;
  refusesBlocks = false;
  round: RoundInfo = {
    round: 1,
    reward: 200_000_000n,
    slotTimestamp: 8,
    canForge: true,
    currentForger: ourKey,
    nextForger: '02bb',
    lastBlock: { id: 'previous', height: 1 },
    msUntilNextSlot: 5_000,
  };
  network: NetworkState = {
    status: NetworkStatus.Default,
    nodeHeight: 1,
    lastBlockId: 'previous',
    quorumDetails: {
      peersQuorum: 3,
      peersNoQuorum: 0,
      peersOverHeight: 0,
      peersOverHeightBlockHeaders: {},
      peersForked: 0,
      peersDifferentSlot: 0,
      peersForgingNotAllowed: 0,
    },
  };
  constructor(readonly name: string) {}
  async currentRound() {
    if (this.failing) throw new Error('connection refused');
    return this.round;
  }
  async networkState() {
    return this.network;
  }
  async transactionsForBlock() {
    return ['aa', 'bb'];
  }
  async postBlock(block: string) {
    if (this.refusesBlocks) throw new Error('block refused');
    this.posted.push(block);
  }
}

function setup(relays: RelayPort[], now?: () => number) {
  const records: { msg: string; level?: number; reason?: string; height?: number }[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      records.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const templates: BlockTemplate[] = [];
  const forger = new ForgerService({
    relays,
    delegates: [ours],
    rules: { minimumQuorum: 0.66, allowSingleNode: false },
    assemble: (template) => {
      templates.push(template);
      const height = template.previousBlock.height + 1;
      return {
        id: `block-${height}`,
        height,
        numberOfTransactions: template.transactions.length,
        serialized: `block-${height}`,
      };
    },
    logger: createLogger({ out, level: 'debug' }),
    ...(now && { now }),
  });
  return { forger, records, templates };
}

describe('the forger', () => {
  it('forges once in its own slot on the last block, with the relay transactions and the reward', async () => {
    const relay = new ScriptedRelay('relay-1');
    const { forger, records, templates } = setup([relay]);
    expect(await forger.checkSlot()).toBe(5_000);
    expect(await forger.checkSlot()).toBe(5_000);
    expect(relay.posted).toEqual(['block-2']);
    expect(templates[0]).toMatchObject({
      keys: ours,
      previousBlock: { id: 'previous', height: 1 },
      timestamp: 8,
      reward: 200_000_000n,
      transactions: ['aa', 'bb'],
    });
    expect(records.find((record) => record.msg === 'Forged block')).toMatchObject({ height: 2 });
  });

  it('does not forge in another delegate’s slot', async () => {
    const relay = new ScriptedRelay('relay-1');
    relay.round = { ...relay.round, currentForger: '02cc' };
    const { forger } = setup([relay]);
    await forger.checkSlot();
    expect(relay.posted).toEqual([]);
  });

  it('logs a missed slot with the reason when the network is not safe to forge on', async () => {
    const relay = new ScriptedRelay('relay-1');
    relay.network = {
      ...relay.network,
      quorumDetails: { ...relay.network.quorumDetails, peersQuorum: 3, peersNoQuorum: 7 },
    };
    const { forger, records } = setup([relay]);
    await forger.checkSlot();
    expect(relay.posted).toEqual([]);
    expect(records.find((record) => record.msg === 'Missed slot')).toMatchObject({
      height: 2,
      reason: 'network quorum 0.30 is below 0.66',
    });
  });

  it('asks the next relay when one does not answer, and posts to every relay', async () => {
    const down = new ScriptedRelay('down');
    down.failing = true;
    const up = new ScriptedRelay('up');
    const { forger } = setup([down, up]);
    await forger.checkSlot();
    expect(up.posted).toEqual(['block-2']);
    expect(down.posted).toEqual(['block-2']);
  });

  it('reports a missed slot when no relay accepts the block', async () => {
    const relay = new ScriptedRelay('relay-1');
    relay.refusesBlocks = true;
    const { forger, records } = setup([relay]);
    await forger.checkSlot();
    expect(records.some((record) => record.msg === 'Missed slot: forging failed')).toBe(true);
  });
});

describe('the forger while its relay is down', () => {
  it('warns at a steady rate while it lasts, retries quietly between, and says when it is back', async () => {
    const relay = new ScriptedRelay('relay-1');
    relay.failing = true;
    const clock = { now: 1_000_000 };
    const { forger, records } = setup([relay], () => clock.now);
    const warnings = () =>
      records.filter((record) => record.msg === 'Relay did not answer' && record.level === 40);
    for (let i = 0; i < 3; i++) await forger.checkSlot();
    expect(warnings()).toHaveLength(1);
    expect(records.filter((record) => record.msg === 'Relay did not answer')).toHaveLength(3);
    clock.now += 30_000;
    await forger.checkSlot();
    expect(warnings()).toHaveLength(2);
    relay.failing = false;
    await forger.checkSlot();
    expect(records.some((record) => record.msg === 'Relay is back')).toBe(true);
    expect(relay.posted).toEqual(['block-2']);
  });
});
