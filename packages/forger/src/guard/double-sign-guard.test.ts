import { createLogger } from '@lni/kernel';
import { NetworkStatus } from '@lni/p2p/wire';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkState, RelayRound } from '../forging/relay-port.js';
import { DoubleSignGuard, type DoubleSignPrevented } from './double-sign-guard.js';
import { SigningRecord } from './signing-record.js';

const ours = `02${'a'.repeat(64)}`;
const ourKeys = new Set([ours]);
const name = () => 'genesis_1';

function networkState(overrides: Partial<NetworkState['quorumDetails']> = {}): NetworkState {
  return {
    status: NetworkStatus.Default,
    quorumDetails: {
      peersQuorum: 3,
      peersNoQuorum: 0,
      peersOverHeight: 0,
      peersOverHeightBlockHeaders: {},
      peersForked: 0,
      peersDifferentSlot: 0,
      peersForgingNotAllowed: 0,
      ...overrides,
    },
  };
}

function round(slotTimestamp: number, lastBlock: RelayRound['lastBlock']): RelayRound {
  return {
    round: 1,
    reward: 0n,
    slotTimestamp,
    canForge: true,
    currentForger: ours,
    nextForger: ours,
    lastBlock,
    msUntilNextSlot: 8_000,
  };
}

let directory: string;
let clock: number;
let warnings: { msg: string; delegate?: string; otherBlock?: string }[];
let reports: DoubleSignPrevented[];

function guard(startupWaitMs = 0): DoubleSignGuard {
  const out = new Writable({
    write(chunk, _encoding, done) {
      const record = JSON.parse(chunk.toString());
      if (record.level === 40) warnings.push(record);
      done();
    },
  });
  return new DoubleSignGuard({
    record: new SigningRecord(join(directory, 'record.json')),
    logger: createLogger({ out, level: 'info' }),
    report: (prevented) => reports.push(prevented),
    startupWaitMs,
    now: () => clock,
  });
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'lni-guard-'));
  clock = 1_000_000;
  warnings = [];
  reports = [];
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe('double-sign guard', () => {
  it('never signs again at or below the height, or in the slot, it recorded, even after a restart', () => {
    guard().signed(ours, { height: 10, slot: 80, id: 'b10' });
    const restarted = guard();
    const network = networkState();
    expect(restarted.permit(ours, 'genesis_1', { height: 10, slot: 88 }, network)).toMatchObject({
      sign: false,
      reason: expect.stringMatching(/height 10 and slot 80/),
    });
    expect(restarted.permit(ours, 'genesis_1', { height: 11, slot: 80 }, network).sign).toBe(false);
    expect(restarted.permit(ours, 'genesis_1', { height: 11, slot: 88 }, network).sign).toBe(true);
  });

  it('waits for the relay to be level with the network before its first block since start', () => {
    const fresh = guard();
    const behind = networkState({ peersOverHeight: 2 });
    expect(fresh.permit(ours, 'genesis_1', { height: 5, slot: 40 }, behind)).toMatchObject({
      sign: false,
      reason: expect.stringMatching(/level with the network .*2 peers are above/),
    });
    expect(
      fresh.permit(
        ours,
        'genesis_1',
        { height: 5, slot: 40 },
        { ...networkState(), status: NetworkStatus.ColdStart },
      ).sign,
    ).toBe(false);
    expect(fresh.permit(ours, 'genesis_1', { height: 5, slot: 40 }, networkState()).sign).toBe(
      true,
    );
  });

  it('waits startupWait after start before its first block', () => {
    const patient = guard(60_000);
    const target = { height: 5, slot: 40 };
    expect(patient.permit(ours, 'genesis_1', target, networkState())).toMatchObject({
      sign: false,
      reason: expect.stringMatching(/startupWait/),
    });
    clock += 60_000;
    expect(patient.permit(ours, 'genesis_1', target, networkState()).sign).toBe(true);
  });

  it('steps aside for good when a block signed with its key by another forger appears since its start', () => {
    const backup = guard();
    backup.observe(
      round(80, { id: 'g', height: 9, generatorPublicKey: 'other', timestamp: 72 }),
      ourKeys,
      name,
    );
    // The other forger, holding the same secret, signed block 10 in the slot after our start.
    backup.observe(
      round(88, { id: 'theirs', height: 10, generatorPublicKey: ours, timestamp: 80 }),
      ourKeys,
      name,
    );
    backup.observe(
      round(96, { id: 'theirs', height: 10, generatorPublicKey: ours, timestamp: 80 }),
      ourKeys,
      name,
    );

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ delegate: 'genesis_1', otherBlock: 'theirs' });
    expect(reports).toEqual([
      {
        delegate: 'genesis_1',
        publicKey: ours,
        height: 11,
        slot: 88,
        otherBlock: { id: 'theirs', height: 10 },
      },
    ]);
    expect(
      backup.permit(ours, 'genesis_1', { height: 11, slot: 96 }, networkState()),
    ).toMatchObject({
      sign: false,
      reason: expect.stringMatching(/standing down: another forger signs with genesis_1's key/),
    });
    expect(backup.state(ours).standingDown).toEqual({
      delegate: 'genesis_1',
      id: 'theirs',
      height: 10,
    });
  });

  it('does not take its own blocks, nor ones from before its start when it has no record, for another forger', () => {
    const fresh = guard(); // nothing recorded: a block before its start may be its own
    fresh.observe(
      round(96, { id: 'x', height: 11, generatorPublicKey: ours, timestamp: 88 }),
      ourKeys,
      name,
    );
    guard().signed(ours, { height: 10, slot: 80, id: 'mine' });
    const restarted = guard();
    restarted.observe(
      round(88, { id: 'mine', height: 10, generatorPublicKey: ours, timestamp: 80 }),
      ourKeys,
      name,
    );
    expect(reports).toEqual([]);
    expect(restarted.permit(ours, 'genesis_1', { height: 11, slot: 88 }, networkState()).sign).toBe(
      true,
    );
  });

  it('stands down for all its delegates when a block above its record was signed elsewhere, even before its start', () => {
    // The old machine of a moved forger, started again by mistake: the new one signed block 60.
    const alsoOurs = `03${'c'.repeat(64)}`;
    guard().signed(ours, { height: 10, slot: 80, id: 'mine' });
    const old = guard();
    old.observe(
      round(488, { id: 'new-machine', height: 60, generatorPublicKey: ours, timestamp: 480 }),
      new Set([ours, alsoOurs]),
      name,
    );
    expect(reports.map((report) => report.otherBlock)).toEqual([{ id: 'new-machine', height: 60 }]);
    expect(old.permit(alsoOurs, 'genesis_2', { height: 61, slot: 488 }, networkState()).sign).toBe(
      false,
    );
  });

  it('refuses when a peer already holds a block for the height signed with its key', () => {
    const forger = guard();
    const network = networkState({
      peersOverHeight: 1,
      peersOverHeightBlockHeaders: {
        theirs: { id: 'theirs', height: 11, generatorPublicKey: ours },
      },
    });
    const verdict = forger.permit(ours, 'genesis_1', { height: 11, slot: 88 }, network);
    expect(verdict).toMatchObject({ sign: false, reported: true });
    expect(warnings).toHaveLength(1);
    expect(reports[0]?.otherBlock).toEqual({ id: 'theirs', height: 11 });
  });
});
