import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockStorage, RoundStorage, type Database } from '@lni/database';
import { EventBus, type EventMap } from '@lni/kernel';
import type { Wallet } from '@lni/state';
import '@lni/state/contracts';
import {
  openLedgerDatabase,
  postgresSkipReason,
  quietLogger,
  writeHead,
  writeWallets,
} from '../__fixtures__/wallet-table.js';
import {
  PUB_KEY_HASH,
  sampleTransactions,
  shortRounds,
  storedBlock,
} from '../__fixtures__/stored-chain.js';
import { HeadFollower } from './head-follower.js';
import { HeadReader } from './head-reader.js';
import { HeadCache } from './ledger-head.js';

const LEDGER_EVENTS = [
  'transaction.applied',
  'delegate.registered',
  'delegate.resigned',
  'block.applied',
  'block.reverted',
  'round.applied',
  'wallets.changed',
] as const;

type Seen = { event: string; height: number | undefined; detail?: unknown };

/** What the bus carried, as (event, height, what matters of it). */
function recorder(events: EventBus): Seen[] {
  const seen: Seen[] = [];
  for (const name of LEDGER_EVENTS) {
    events.on(name, (payload: EventMap[typeof name]) => {
      const p = payload as Record<string, unknown> & {
        block?: { height: number; id: string };
        height?: number;
      };
      const height = p.block?.height ?? p.height;
      const detail =
        name === 'transaction.applied'
          ? (p.transaction as { id: string }).id
          : name === 'delegate.registered'
            ? p.username
            : name === 'round.applied'
              ? [p.round, (p.delegates as string[]).length]
              : name === 'wallets.changed'
                ? p.addresses
                : p.block?.id;
      seen.push({ event: name, height, detail });
    });
  }
  return seen;
}

const wallet = (address: string, balance: bigint): Wallet => ({
  address,
  balance,
  nonce: 0n,
  attributes: {},
});

describe.skipIf(postgresSkipReason)('HeadFollower', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let blocks: BlockStorage;
  let rounds: RoundStorage;
  const events = new EventBus(quietLogger());
  const seen = recorder(events);
  const cache = new HeadCache();
  let follower: HeadFollower;

  /** What the writer does in one transaction: the block, its round, the wallets and the head. */
  async function commit(
    stored: ReturnType<typeof storedBlock>,
    changed: readonly Wallet[],
    elected?: number,
  ) {
    await database.transaction(async (manager) => {
      await blocks.saveBlocks([stored], manager);
      if (elected !== undefined) {
        await rounds.saveRound(
          ['02aa', '02bb', '02cc'].map((publicKey, i) => ({
            round: elected,
            publicKey: publicKey.padEnd(66, String(i)),
            balance: BigInt(100 - i),
          })),
          manager,
        );
      }
      await writeWallets({ manager }, changed, stored.block.height);
      await writeHead(
        { manager },
        {
          height: stored.block.height,
          blockId: stored.block.id,
          supply: BigInt(stored.block.height) * 1_000n,
          walletCount: 3,
        },
      );
    });
  }

  beforeAll(async () => {
    ({ database, dispose } = await openLedgerDatabase());
    blocks = new BlockStorage({ database });
    rounds = new RoundStorage({ database });
    await commit(storedBlock(1), [wallet('A1', 1n)], 1);
    follower = new HeadFollower({
      reader: new HeadReader({
        database,
        blockStorage: blocks,
        roundStorage: rounds,
        timeoutMs: 5_000,
      }),
      headCache: cache,
      events,
      milestones: shortRounds,
      pubKeyHash: PUB_KEY_HASH,
      logger: quietLogger(),
      // Long: the test wakes the follower itself, except where it waits for a poll.
      pollMs: 60_000,
      revertWindow: 10,
    });
    await follower.start();
  });
  afterAll(async () => {
    await follower?.stop();
    await dispose?.();
  });

  it('starts at the head without publishing the blocks below it', () => {
    expect(seen).toEqual([]);
    expect(cache.head).toMatchObject({ height: 1, supply: 1_000n, lastBlock: { height: 1 } });
  });

  it('publishes each new block as the state plugin does, in height order', async () => {
    const transactions = sampleTransactions('x');
    const two = storedBlock(2, transactions);
    const three = storedBlock(3);
    await commit(two, [wallet('A2', 2n), wallet('A1', 3n)]);
    // Round 1 is heights 1-3: its last block elects round 2.
    await commit(three, [wallet('A3', 3n)], 2);
    await follower.wake();
    expect(seen.splice(0)).toEqual([
      { event: 'transaction.applied', height: 2, detail: transactions[0]?.id },
      { event: 'transaction.applied', height: 2, detail: transactions[1]?.id },
      { event: 'delegate.registered', height: 2, detail: 'new_x' },
      { event: 'block.applied', height: 2, detail: two.block.id },
      { event: 'wallets.changed', height: 2, detail: ['A1', 'A2'] },
      { event: 'block.applied', height: 3, detail: three.block.id },
      { event: 'round.applied', height: 3, detail: [2, 3] },
      { event: 'wallets.changed', height: 3, detail: ['A3'] },
    ]);
    expect(cache.head).toMatchObject({ height: 3, blockId: three.block.id, supply: 3_000n });
    expect(cache.usernameOf('unknown')).toBeUndefined();
  });

  it('announces a revert on the writer with the dropped block, then the new branch', async () => {
    const [dropped] = await blocks.getBlocksByHeightRange(3, 3);
    await blocks.deleteBlocksAbove(2);
    const replacement = storedBlock(3, [], 'fork');
    await commit(replacement, [wallet('A3', 4n)], 2);
    await follower.wake();
    expect(seen.splice(0).map(({ event, height, detail }) => [event, height, detail])).toEqual([
      ['block.reverted', 3, dropped?.id],
      ['block.applied', 3, replacement.block.id],
      ['round.applied', 3, [2, 3]],
      ['wallets.changed', 3, ['A3']],
    ]);
    expect(cache.head?.blockId).toBe(replacement.block.id);
  });

  it('announces a head that moved down with block.reverted alone', async () => {
    await database.transaction(async (manager) => {
      await blocks.deleteBlocksAbove(2, manager);
      const [two] = await blocks.getBlocksByHeightRange(2, 2, manager);
      await writeHead(
        { manager },
        { height: 2, blockId: two?.id ?? '', supply: 2_000n, walletCount: 3 },
      );
    });
    await follower.wake();
    expect(seen.splice(0).map(({ event, height }) => [event, height])).toEqual([
      ['block.reverted', 3],
    ]);
    expect(cache.head).toMatchObject({ height: 2, supply: 2_000n });
  });

  it('reads the head unwoken, every pollMs', async () => {
    const polling = new HeadFollower({
      reader: new HeadReader({
        database,
        blockStorage: blocks,
        roundStorage: rounds,
        timeoutMs: 5_000,
      }),
      headCache: new HeadCache(),
      events,
      milestones: shortRounds,
      pubKeyHash: PUB_KEY_HASH,
      logger: quietLogger(),
      pollMs: 20,
      revertWindow: 10,
    });
    await polling.start();
    const next = storedBlock(3, [], 'polled');
    const applied = events.once('block.applied');
    await commit(next, []);
    try {
      // The primary follower is not woken; only the polling one reads the head.
      expect((await applied).block.id).toBe(next.block.id);
    } finally {
      await polling.stop();
    }
    seen.splice(0);
  });
});
