import { describe, expect, it } from 'vitest';
import type { TransactionData } from '@lni/crypto';
import type { FullBlock } from '../blocks/block-store.js';
import { addressOf, ALICE, BOB, nextBlock, transferOf } from '../blocks/__fixtures__/test-chain.js';
import type { PoolListener } from './pool-announcer.js';
import { poolNetwork, poolParts } from './__fixtures__/pool-world.js';

const alice = addressOf(ALICE);
const bob = addressOf(BOB);

/** Parts whose pool holds `transactions` (admitted at `at`), and what their channel announces. */
async function pooled(transactions: readonly TransactionData[], now = { ms: 1_000 }) {
  const parts = poolParts({ maxAgeSeconds: 60 }, { clock: () => now.ms });
  const heard: string[] = [];
  const listener: PoolListener = {
    added: (entries, origin) => heard.push(...entries.map((e) => `added ${e.id} ${origin}`)),
    removed: (removals) => heard.push(...removals.map((r) => `removed ${r.entry.id} ${r.reason}`)),
  };
  parts.announcer.subscribe(listener);
  const verdicts = await parts.admission.verify(transactions);
  const judged = parts.admission.admitAll(transactions, () => now.ms, verdicts);
  expect(judged.rejected).toEqual([]);
  parts.announcer.added(
    judged.admitted.map((item) => item.entry),
    'submitted',
  );
  heard.length = 0;
  return { ...parts, heard };
}

const ids = (list: Iterable<{ id: string }>) => [...list].map((entry) => entry.id);

describe('PoolReconciliation', () => {
  it('after a block, drops what it included and every sequence it broke from where it broke', async () => {
    const aliceTxs = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
    const bobTxs = [1n, 2n].map((n) => transferOf(BOB, alice, 1n, n));
    const world = await pooled([...aliceTxs, ...bobTxs]);
    // Bob spent his nonce 1 elsewhere: both of his pooled transactions can no longer apply.
    const block = nextBlock(poolNetwork, world.processor.lastBlock as FullBlock, [
      aliceTxs[0] as TransactionData,
      transferOf(BOB, alice, 7n, 1n),
    ]);
    world.processor.applyToState(block);
    world.reconciliation.blockApplied(block);
    expect(ids(world.index.entries())).toEqual([aliceTxs[1]?.id]);
    expect(world.heard).toEqual([
      `removed ${aliceTxs[0]?.id} confirmed`,
      `removed ${bobTxs[0]?.id} dropped`,
      `removed ${bobTxs[1]?.id} dropped`,
    ]);
  });

  it('drops what waited longer than maxAgeSeconds', async () => {
    const now = { ms: 1_000 };
    const world = await pooled([transferOf(ALICE, bob, 1n, 1n)], now);
    now.ms += 60_001;
    expect(world.reconciliation.revalidate()).toBe(1);
    expect(world.index.size).toBe(0);
  });

  it('after a revert, takes the reverted transactions back ahead of the waiting ones', async () => {
    const [a1, a2, a3] = [1n, 2n, 3n].map((n) => transferOf(ALICE, bob, 1n, n));
    const now = { ms: 1_000 };
    const world = await pooled([], now);
    const checkpoint = world.wallets.checkpoint();
    const first = nextBlock(poolNetwork, world.processor.lastBlock as FullBlock, [a1!]);
    world.processor.applyToState(first);
    const second = nextBlock(poolNetwork, first, [a2!]);
    world.processor.applyToState(second);
    const verdicts = await world.admission.verify([a3!]);
    world.admission.admitAll([a3!], () => now.ms, verdicts);
    world.wallets.rollback(checkpoint);
    now.ms = 9_000;
    await world.reconciliation.blocksReverted([first, second]);
    const entries = world.index.senderEntries(alice);
    expect(entries.map((e) => [e.id, e.addedAt])).toEqual([
      [a1?.id, 9_000],
      [a2?.id, 9_000],
      [a3?.id, 1_000],
    ]);
    // The waiting one keeps what its signatures were verified under; the returning ones were
    // verified by the blocks that carried them, under registrations the pool does not know.
    expect(entries.map((e) => e.verifiedUnder)).toEqual([undefined, undefined, {}]);
    expect(world.heard).toEqual([`added ${a1?.id} restored`, `added ${a2?.id} restored`]);
  });

  it('undoes entries storage refused, with what was taken on top of them', async () => {
    const [a1, a2] = [1n, 2n].map((n) => transferOf(ALICE, bob, 1n, n));
    const world = await pooled([]);
    // a1 waits for its write; a2, taken on top of it, was written and announced.
    const [refused] = world.admission.admitAll([a1!], () => 1_000, [{}]).admitted;
    const [kept] = world.admission.admitAll([a2!], () => 1_000, [{}]).admitted;
    world.announcer.added([kept!.entry], 'submitted');
    world.reconciliation.undo([refused!.entry]);
    expect(world.index.size).toBe(0);
    // Only what was announced as added is announced as removed.
    expect(world.heard).toEqual([`added ${a2?.id} submitted`, `removed ${a2?.id} dropped`]);
  });
});
