import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore } from '../../blocks/__fixtures__/test-database.js';
import { WalletRepository } from '../wallet-repository.js';
import { walletOfRow } from '../wallet-row.js';
import { StateHash } from './state-hash.js';
import { readStateHead, WalletTableWriter } from './wallet-table-writer.js';

const skipPostgres = process.env.LNI_TEST_POSTGRES === 'unavailable';
const address = (n: number) => `AWalletTableWriterTest${String(n).padStart(12, '0')}`;

describe.each([
  { backend: 'postgres' as const, skip: skipPostgres },
  // The node without a server: pg_notify must not fail there (PGlite accepts it).
  { backend: 'embedded' as const, skip: false },
])('WalletTableWriter on $backend', ({ backend, skip }) => {
  let store: Awaited<ReturnType<typeof openTestStore>> | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  const writerOver = (wallets: WalletRepository) => {
    const stateHash = new StateHash();
    const writer = new WalletTableWriter({
      wallets,
      stateHash,
      supply: () => 1000n,
      roundAt: (height) => Math.ceil(height / 5),
    });
    return { writer, stateHash };
  };

  const tableWallets = async () => {
    const rows = (await store!.database.manager.query(
      `SELECT address, public_key, balance::text AS balance, nonce::text AS nonce, attributes
       FROM wallets ORDER BY address`,
    )) as Parameters<typeof walletOfRow>[0][];
    return rows.map(walletOfRow);
  };

  it.skipIf(skip)(
    'upserts the changed wallets, deletes the gone ones, moves the head, and moves the hash only once committed',
    async () => {
      store = await openTestStore(backend);
      const wallets = new WalletRepository();
      const { writer, stateHash } = writerOver(wallets);
      for (let n = 0; n < 3; n++) wallets.update(address(n), { balance: BigInt(n * 10) });
      const tip = { height: 1, id: 'a'.repeat(64) };
      const applied = await store.database.transaction((manager) =>
        writer.writeChanges(manager, tip, [address(0), address(1), address(2)]),
      );
      applied();
      expect(await tableWallets()).toEqual([...wallets.all()]);
      const hashAt1 = stateHash.hex;
      expect(await readStateHead(store.database.manager)).toEqual({
        height: 1,
        blockId: tip.id,
        supply: 1000n,
        stateHash: hashAt1,
        round: 1,
        walletCount: 3,
      });

      // A transaction that rolls back leaves table, head and hash as they were.
      wallets.update(address(1), { balance: 99n });
      await expect(
        store.database.transaction(async (manager) => {
          await writer.writeChanges(manager, { height: 2, id: 'b'.repeat(64) }, [address(1)]);
          throw new Error('the block write failed');
        }),
      ).rejects.toThrow('the block write failed');
      expect(stateHash.hex).toBe(hashAt1);
      expect((await readStateHead(store.database.manager))?.height).toBe(1);

      // A wallet gone from memory is gone from the table; the hash is that of what remains.
      const checkpoint = wallets.checkpoint();
      wallets.update(address(3), { balance: 5n });
      wallets.rollback(checkpoint);
      const done = await store.database.transaction((manager) =>
        writer.writeChanges(manager, { height: 2, id: 'b'.repeat(64) }, [address(1), address(3)]),
      );
      done();
      expect(await tableWallets()).toEqual([...wallets.all()]);
      const fresh = new StateHash();
      fresh.reset(wallets.all());
      expect(stateHash.hex).toBe(fresh.hex);
    },
    // PGlite takes 20 s to open and migrate on an idle machine, minutes on a loaded one.
    180_000,
  );

  // The same statements on both backends; PGlite takes ~20 s to open, so once is enough there.
  it.skipIf(skip || backend === 'embedded')(
    'writes the whole table and the head in one go after a rebuild',
    async () => {
      store = await openTestStore(backend);
      const wallets = new WalletRepository();
      const { writer, stateHash } = writerOver(wallets);
      wallets.load(
        Array.from({ length: 12_000 }, (_, n) => ({
          address: address(n),
          balance: BigInt(n),
          nonce: BigInt(n % 3),
        })),
      );
      await writer.writeAll(store.database, { height: 7, id: 'c'.repeat(64) });
      const table = await tableWallets();
      expect(table).toHaveLength(12_000);
      expect(table).toEqual([...wallets.all()].sort((a, b) => (a.address < b.address ? -1 : 1)));
      expect((await readStateHead(store.database.manager))?.stateHash).toBe(stateHash.hex);
    },
    60_000,
  );
});
