import { createLogger } from '@lni/kernel';
import { keysFromPassphrase } from '@lni/crypto';
import { Writable } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { BlockTemplate } from './block-assembler.js';
import { ForgerService, type ForgerServiceDeps } from './forger-service.js';
import { DoubleSignGuard } from '../guard/double-sign-guard.js';
import { SigningRecord } from '../guard/signing-record.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetworkStatus } from '@lni/p2p/wire';
import type { NetworkState, RelayPort, RelayRound } from './relay-port.js';

const ours = keysFromPassphrase('our delegate');
const ourKey = ours.publicKey.toString('hex');

// Stands for a relay's internal endpoints; the real ones are exercised end to end in test/.
class ScriptedRelay implements RelayPort {
  posted: string[] = [];
  failing = false;
  refusesBlocks = false;
  round: RelayRound = {
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
  async postBlock(block: Buffer) {
    if (this.refusesBlocks) throw new Error('block refused');
    this.posted.push(block.toString());
  }
}

function setup(relays: RelayPort[], now?: () => number, extra: Partial<ForgerServiceDeps> = {}) {
  const records: {
    msg: string;
    level?: number;
    reason?: string;
    height?: number;
    delegate?: string;
  }[] = [];
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
        serialized: Buffer.from(`block-${height}`),
      };
    },
    logger: createLogger({ out, level: 'debug' }),
    ...(now && { now }),
    ...extra,
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

  it('names the option that lets it forge without peers, in its first missed slot only', async () => {
    const relay = new ScriptedRelay('relay-1');
    relay.network = {
      ...relay.network,
      status: NetworkStatus.BelowMinimumPeers,
      quorumDetails: { ...relay.network.quorumDetails, peersQuorum: 0, peersNoQuorum: 0 },
    };
    const { forger, records } = setup([relay]);
    for (const slot of [8, 16, 24]) {
      relay.round = { ...relay.round, slotTimestamp: slot };
      await forger.checkSlot();
    }
    const missed = records.filter((record) => record.msg === 'Missed slot') as {
      reason?: string;
      remedy?: string;
    }[];
    expect(missed).toHaveLength(3);
    expect(
      missed.every((record) => /below its minimum network reach/.test(record.reason ?? '')),
    ).toBe(true);
    expect(missed[0]?.remedy).toMatch(/set allowSingleNode to true in the forger's options/);
    expect(missed.slice(1).map((record) => record.remedy)).toEqual([undefined, undefined]);
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

describe('the forger at start', () => {
  function startWith(delegates: readonly string[], registered: ReadonlyMap<string, boolean>) {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const keys = delegates.map((secret) => keysFromPassphrase(secret));
    const forger = new ForgerService({
      relays: [new ScriptedRelay('127.0.0.1:4000')],
      delegates: keys,
      rules: { minimumQuorum: 0.66, allowSingleNode: false },
      assemble: () => {
        throw new Error('not forging in this test');
      },
      logger: createLogger({ out, level: 'info' }),
      registry: {
        height: () => 7,
        delegate: (publicKey) => {
          const index = keys.findIndex((pair) => pair.publicKey.toString('hex') === publicKey);
          const resigned = registered.get(delegates[index] ?? '');
          return resigned === undefined ? undefined : { username: `d${index}`, resigned };
        },
      },
    });
    forger.start();
    void forger.stop();
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('logs how many delegates it forges for and names three, not every key', () => {
    const secrets = Array.from({ length: 51 }, (_, index) => `delegate ${index}`);
    const records = startWith(secrets, new Map(secrets.map((secret) => [secret, false])));
    const started = records.find((record) => record.msg === 'Forger started');
    expect(started).toMatchObject({ delegates: 51, names: 'd0, d1, d2 and 48 more' });
    expect(JSON.stringify(started).length).toBeLessThan(400);
    expect(records.filter((record) => record.level === 40)).toEqual([]);
  });

  it('warns about secrets of no registered delegate and of resigned ones, once each', () => {
    const records = startWith(
      ['registered', 'resigned', 'stranger one', 'stranger two'],
      new Map([
        ['registered', false],
        ['resigned', true],
      ]),
    );
    const warnings = records.filter((record) => record.level === 40);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({
      msg: 'Secrets in delegates.json belong to no delegate registered up to this height: they forge nothing',
      secrets: 2,
      height: 7,
    });
    expect(warnings[0]?.publicKeys).toContain(
      keysFromPassphrase('stranger one').publicKey.toString('hex'),
    );
    expect(warnings[1]).toMatchObject({
      msg: 'Secrets in delegates.json belong to resigned delegates: they forge nothing',
      names: 'd1',
    });
  });
});

describe('the forger with its double-sign guard', () => {
  const guardIn = (directory: string) =>
    new DoubleSignGuard({
      record: new SigningRecord(join(directory, 'record.json')),
      logger: createLogger({ level: 'fatal' }),
      report: () => undefined,
      startupWaitMs: 0,
    });

  it('names the delegate by its username in "Forged block", by its public key when none is known', async () => {
    const named = new ScriptedRelay('relay-1');
    named.round = { ...named.round, currentForgerUsername: 'genesis_1' };
    const withName = setup([named]);
    await withName.forger.checkSlot();
    expect(withName.records.find((r) => r.msg === 'Forged block')?.delegate).toBe('genesis_1');

    const withoutName = setup([new ScriptedRelay('relay-1')]);
    await withoutName.forger.checkSlot();
    expect(withoutName.records.find((r) => r.msg === 'Forged block')?.delegate).toBe(ourKey);
  });

  it('logs "Forged block" at debug beside an in-process ledger, whose line says the block', async () => {
    const [info, debug] = [30, 20];
    const alone = setup([new ScriptedRelay('relay-1')]);
    await alone.forger.checkSlot();
    expect(alone.records.find((r) => r.msg === 'Forged block')?.level).toBe(info);

    const beside = setup([new ScriptedRelay('relay-1')], undefined, { forgedLogLevel: 'debug' });
    await beside.forger.checkSlot();
    expect(beside.records.find((r) => r.msg === 'Forged block')?.level).toBe(debug);
  });

  it('records the block before it leaves, so a restart does not sign that height again', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'lni-forger-guard-'));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    const relay = new ScriptedRelay('relay-1');
    relay.refusesBlocks = true; // the post fails after the block left: it may be on the network
    await setup([relay], undefined, { guard: guardIn(directory) }).forger.checkSlot();
    expect(new SigningRecord(join(directory, 'record.json')).last(ourKey)).toEqual({
      height: 2,
      slot: 8,
      id: 'block-2',
    });

    relay.refusesBlocks = false;
    relay.round = { ...relay.round, slotTimestamp: 16 }; // a later slot on the same block
    const restarted = setup([relay], undefined, { guard: guardIn(directory) });
    await restarted.forger.checkSlot();
    expect(relay.posted).toEqual([]);
    const missed = restarted.records.find((r) => r.msg === 'Missed slot');
    expect(missed).toMatchObject({ delegate: ourKey, height: 2, level: 40 });
    expect(missed?.reason).toMatch(/signed up to height 2/);
    expect(restarted.records.filter((r) => r.level === 40)).toHaveLength(1);
  });
});
