import { createLogger } from '@lni/kernel';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBlockStore } from '../blocks/__fixtures__/memory-block-store.js';
import {
  ALICE,
  addressOf,
  INITIAL_BALANCE,
  nextBlock,
  testNetwork,
  testProcessor,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import type { FullBlock } from '../blocks/block-store.js';
import { LegacyPoolFile } from '../pool/legacy-pool-file.js';
import type { RestoreResult } from '../pool/pool-restore.js';
import type { Service } from '@lni/database';
import type { MissedSlotStorage } from '../storage/missed-slot-storage.js';
import type { ElectedRound } from '../rounds/election-log.js';
import { LedgerBoot, type LedgerBootDeps } from './ledger-boot.js';

/** The log lines a boot wrote, parsed. */
function recordingLogger() {
  const out = new PassThrough();
  const lines: { msg: string }[] = [];
  out.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { logger: createLogger({ out, pretty: false, level: 'info' }), lines };
}

/** A pool that notes the ledger's height when it is asked to restore what storage kept. */
function poolWatching(height: () => number) {
  const restoredAt: number[] = [];
  return {
    restoredAt,
    pool: {
      restore: async (
        _saved: unknown,
        { inStorage }: { readonly inStorage: boolean },
      ): Promise<RestoreResult> => {
        if (inStorage) restoredAt.push(height());
        return { restored: 0, dropped: [] };
      },
      flush: async () => {},
    },
  };
}

const elected = (round: number): ElectedRound => ({
  round,
  order: ['a', 'b'],
  votes: new Map([
    ['a', 2n],
    ['b', 1n],
  ]),
});

describe('LedgerBoot', () => {
  const network = testNetwork();
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lni-ledger-boot-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  function bootOf(store: MemoryBlockStore, overrides: Partial<LedgerBootDeps> = {}) {
    const { wallets, processor } = testProcessor(network, store);
    const { pool, restoredAt } = poolWatching(() => processor.lastBlock?.height ?? 0);
    const savedRounds: number[] = [];
    const replaced: Parameters<Service<MissedSlotStorage>['replaceAll']>[0][] = [];
    const { logger, lines } = recordingLogger();
    const boot = new LedgerBoot({
      blockStore: store,
      blockProcessor: processor,
      wallets,
      genesisBlock: network.genesis,
      roundKeeper: { elections: () => [elected(1), elected(2)].values(), latestRoundAt: () => 2 },
      roundStorage: {
        deleteRoundsFrom: async () => {},
        storedRounds: async () => [1],
        saveRound: async (rows) => {
          savedRounds.push(...new Set(rows.map((row) => row.round)));
        },
      },
      missedSlots: { total: 0, all: () => [] },
      missedSlotStorage: {
        count: async () => 3,
        replaceAll: async (slots) => {
          replaced.push([...slots]);
        },
      },
      transactionPool: pool,
      poolStorage: { all: async () => [], removeConfirmed: async () => [] },
      legacyPoolFile: new LegacyPoolFile(join(dataDir, 'pool.json')),
      logger,
      rebuildBatchSize: 2,
      ...overrides,
    });
    return { boot, wallets, processor, restoredAt, savedRounds, replaced, lines };
  }

  it('starts an empty chain at its genesis block, then restores the pool', async () => {
    const store = new MemoryBlockStore();
    const { boot, wallets, processor, restoredAt } = bootOf(store);

    expect(await boot.run()).toEqual({ started: 'genesis' });

    expect(processor.lastBlock?.height).toBe(1);
    expect(store.blocks.map((block) => block.height)).toEqual([1]);
    expect(wallets.get(addressOf(ALICE))?.balance).toBe(INITIAL_BALANCE);
    expect(restoredAt).toEqual([1]);
  });

  it('replays a stored chain, writes what storage lacks, and resumes at the tip', async () => {
    const store = new MemoryBlockStore();
    const first = testProcessor(network, store);
    await first.processor.process(network.genesis);
    let last: FullBlock = network.genesis;
    for (let i = 0; i < 3; i++) {
      last = nextBlock(network, last, [transferOf(ALICE, addressOf('someone'), 1n, BigInt(i + 1))]);
      await first.processor.process(last);
    }
    const { boot, wallets, processor, restoredAt, savedRounds, replaced, lines } = bootOf(store);

    expect(await boot.run()).toEqual({ started: 'rebuilt', height: 4 });

    expect(processor.lastBlock?.id).toBe(last.id);
    expect(store.blocks).toHaveLength(4);
    expect(wallets.get(addressOf(ALICE))?.balance).toBe(
      first.wallets.get(addressOf(ALICE))?.balance,
    );
    // Round 1 was stored already; the missed-slot table disagreed with the replay (3 vs 0).
    expect(savedRounds).toEqual([2]);
    expect(replaced).toEqual([[]]);
    // The pool is judged against the rebuilt chain, not an empty one.
    expect(restoredAt).toEqual([4]);
    expect(lines.filter((line) => line.msg === 'State rebuilt')).toHaveLength(1);
  });
});
