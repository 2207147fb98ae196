import { afterEach, describe, expect, it } from 'vitest';
import { WalletQueryBusyError, WalletQueryError } from '../errors.js';
import { WalletQueryEngine } from '../query/wallet-query-engine.js';
import type { WalletQuery } from '../query/wallet-query.js';
import { WalletRepository } from '../wallet-repository.js';
import { CostRoutedWalletQueries } from './cost-routed-queries.js';
import { WalletReplica } from './wallet-replica.js';

const WALLETS = 30_000;
const later = () => Date.now() + 10_000;

/** Wallets with balances and nonces spread so that range queries match thousands. */
function ledger(): WalletRepository {
  const repository = new WalletRepository();
  repository.load(
    Array.from({ length: WALLETS }, (_, n) => ({
      address: `A${String(n).padStart(8, '0')}`,
      balance: BigInt((n * 7919) % 1_000_003),
      nonce: BigInt(n % 17),
    })),
  );
  return repository;
}

/** A broad range with a second condition: costs thousands of visits, so it goes off-thread. */
const broad: WalletQuery = {
  conditions: [
    { kind: 'range', field: 'balance', from: 1_000n, to: 900_000n },
    { kind: 'range', field: 'nonce', from: 3n },
  ],
  orderBy: [{ field: 'balance', direction: 'desc' }],
  offset: 40,
  limit: 20,
};

const replicas: WalletReplica[] = [];
function replicaOf(repository: WalletRepository, maxQueued?: number): WalletReplica {
  const replica = new WalletReplica(repository, { ...(maxQueued && { maxQueued }) });
  replicas.push(replica);
  return replica;
}
afterEach(async () => {
  await Promise.all(replicas.splice(0).map((replica) => replica.close()));
});

describe('WalletReplica (a worker thread holding a copy of the wallets)', () => {
  it('answers as the engine does on the node, and follows the changes committed since', async () => {
    const repository = ledger();
    const engine = new WalletQueryEngine({ walletRepository: repository });
    const replica = replicaOf(repository);
    expect(await replica.query('wallets', broad, later())).toEqual(engine.wallets(broad));

    // A block: changes inside a checkpoint, committed when it is released.
    const checkpoint = repository.checkpoint();
    repository.update('A00000001', { balance: 899_999n, nonce: 16n });
    repository.update('Bnew', { balance: 899_998n, nonce: 5n });
    // Asked while the block is applied: the copy still holds the last committed state.
    const during = replica.query('wallets', broad, later());
    repository.release(checkpoint);
    const after = replica.query('wallets', broad, later());
    expect((await during).results.map((w) => w.address)).not.toContain('Bnew');
    expect(await after).toEqual(engine.wallets(broad));
    const top = await replica.query('wallets', { ...broad, offset: 0, limit: 2 }, later());
    expect(top.results.map((w) => [w.address, w.balance])).toEqual([
      ['A00000001', 899_999n],
      ['Bnew', 899_998n],
    ]);
  });

  it('drops a rolled-back block: the copy never sees it', async () => {
    const repository = ledger();
    const engine = new WalletQueryEngine({ walletRepository: repository });
    const replica = replicaOf(repository);
    await replica.query('wallets', broad, later());
    const checkpoint = repository.checkpoint();
    repository.update('A00000002', { balance: 5n });
    repository.rollback(checkpoint);
    repository.update('A00000003', { nonce: 0n });
    expect(await replica.query('wallets', broad, later())).toEqual(engine.wallets(broad));
  });

  it('refuses as busy a query whose budget ran out before its turn, or beyond a full queue', async () => {
    const replica = replicaOf(ledger(), 2);
    await expect(replica.query('wallets', broad, Date.now() - 1)).rejects.toBeInstanceOf(
      WalletQueryBusyError,
    );
    const queued = [1, 2].map(() => replica.query('wallets', broad, later()));
    await expect(replica.query('wallets', broad, later())).rejects.toThrow(
      '2 costly wallet queries are waiting',
    );
    await Promise.all(queued);
  });

  it('refuses a malformed query with the engine’s error, naming the field', async () => {
    const replica = replicaOf(ledger());
    const error = await replica
      .query('wallets', { conditions: [{ kind: 'in', field: 'nope', values: [1] }] }, later())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletQueryError);
    expect((error as WalletQueryError).field).toBe('nope');
  });
});

describe('CostRoutedWalletQueries', () => {
  it('answers cheap queries on the node’s thread and only costly ones in the replica', async () => {
    const repository = ledger();
    const walletQueryEngine = new WalletQueryEngine({ walletRepository: repository });
    const walletReplica = replicaOf(repository);
    const queries = new CostRoutedWalletQueries({ walletQueryEngine, walletReplica });
    const deepPage = { orderBy: [{ field: 'balance', direction: 'asc' as const }], offset: 25_000 };
    expect(walletQueryEngine.visits('wallets', deepPage)).toBeLessThanOrEqual(100);
    expect(walletQueryEngine.visits('wallets', broad)).toBeGreaterThan(5_000);

    // With the replica gone, cheap queries still answer; costly ones are refused as busy.
    await walletReplica.close();
    expect(await queries.wallets(deepPage, later())).toEqual(walletQueryEngine.wallets(deepPage));
    await expect(queries.wallets(broad, later())).rejects.toBeInstanceOf(WalletQueryBusyError);
  });
});
