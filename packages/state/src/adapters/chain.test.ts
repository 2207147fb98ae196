import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  delegateRegistration,
  multiPayment,
  serializeFullBlock,
  serializeTransaction,
  vote,
  type TransactionData,
} from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import type { FullBlock } from '../blocks/block-store.js';
import {
  addressOf,
  ALICE,
  BOB,
  keysOf,
  nextBlock,
  PUB_KEY_HASH,
  testNetwork,
  testProcessor,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { openTestStore } from '../blocks/__fixtures__/test-database.js';
import { poolOptions } from '../pool/pool-options.js';
import { TransactionPool } from '../pool/transaction-pool.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import { RoundKeeper } from '../rounds/round-keeper.js';
import { LedgerChain } from './ledger-chain.js';
import { StateConsistencyError, StateRebuilder } from '../boot/state-rebuilder.js';

const logger = createLogger({ level: 'fatal' });
const snapshot = (wallets: WalletRepository) =>
  [...wallets.all()].sort((a, b) => a.address.localeCompare(b.address));

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('chain on PostgreSQL: random blocks, revert, rebuild, p2p port', () => {
  const network = testNetwork();
  let db: Awaited<ReturnType<typeof openTestStore>>;
  let live: ReturnType<typeof testProcessor>;
  let afterGenesis: ReturnType<typeof snapshot>;
  const blocks: FullBlock[] = [];
  let roundKeeper: RoundKeeper;

  /** The chain port over the live ledger, as the state plugin wires it, with a pool of its own. */
  function chainPort(overrides: Partial<ConstructorParameters<typeof LedgerChain>[0]> = {}) {
    const pool = new TransactionPool({
      wallets: live.wallets,
      milestones: network.milestones,
      network: { pubKeyHash: PUB_KEY_HASH },
      tip: () => live.processor.lastBlock as FullBlock,
      poolOptions: poolOptions({ staticFees: false }),
      logger,
    });
    const port = new LedgerChain({
      blockProcessor: live.processor,
      transactionPool: pool,
      blockStore: db.store,
      roundKeeper,
      milestones: network.milestones,
      network: network.generated.network,
      logger,
      ...overrides,
    });
    return { port, pool };
  }

  beforeAll(async () => {
    db = await openTestStore();
    live = testProcessor(network, db.store);
    roundKeeper = new RoundKeeper({ wallets: live.wallets, milestones: network.milestones });
    await live.processor.process(network.genesis);
    afterGenesis = snapshot(live.wallets);
    const next = random(42);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const CAROL = 'carol test passphrase for the chain helper';
    const DAVE = 'dave test passphrase for the chain helper';
    const senders = [ALICE, BOB, CAROL, DAVE];
    const nonces = new Map<string, bigint>(senders.map((s) => [s, 0n]));
    const votes = new Map<string, string | undefined>();
    const delegates = [...network.schedule.delegates];
    const registered = new Set<string>();
    const recipients = [...senders.map(addressOf), ...[1, 2, 3].map((i) => addressOf(`r${i}`))];
    const nonceOf = (sender: string) => {
      const nonce = (nonces.get(sender) as bigint) + 1n;
      nonces.set(sender, nonce);
      return nonce;
    };
    /** One random valid transaction: transfers, multipayments, votes and unvotes, registrations. */
    const randomTransaction = (): TransactionData => {
      const sender = pick(senders);
      const options = { network: PUB_KEY_HASH };
      const roll = next();
      if (roll < 0.15) {
        const current = votes.get(sender);
        const chosen = current ?? pick(delegates);
        const builder = current ? vote(options).unvote(current) : vote(options).vote(chosen);
        votes.set(sender, current ? undefined : chosen);
        return builder.nonce(nonceOf(sender)).sign(keysOf(sender)).build();
      }
      if (roll < 0.22 && !registered.has(sender)) {
        registered.add(sender);
        delegates.push(keysOf(sender).publicKey.toString('hex'));
        return delegateRegistration(options)
          .username(`user_${registered.size}`)
          .nonce(nonceOf(sender))
          .sign(keysOf(sender))
          .build();
      }
      if (roll < 0.32) {
        const builder = multiPayment(options);
        for (let i = 0; i < 2 + Math.floor(next() * 3); i++) {
          builder.addPayment(pick(recipients), BigInt(1 + Math.floor(next() * 1e8)));
        }
        return builder.nonce(nonceOf(sender)).sign(keysOf(sender)).build();
      }
      return transferOf(
        sender,
        pick(recipients),
        BigInt(1 + Math.floor(next() * 1e9)),
        nonceOf(sender),
      );
    };
    let previous = network.genesis;
    for (let height = 2; height <= 150; height++) {
      const txs: TransactionData[] =
        height === 2
          ? [CAROL, DAVE].map((p) =>
              transferOf(ALICE, addressOf(p), 100_000_000_000n, nonceOf(ALICE)),
            )
          : Array.from({ length: Math.floor(next() * 8) }, randomTransaction);
      const block = nextBlock(network, previous, txs, { slotsLater: 1 + Math.floor(next() * 3) });
      await live.processor.process(block);
      blocks.push(block);
      previous = block;
    }
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('rebuilds from storage exactly the live state, and checks it', async () => {
    const rebuilt = testProcessor(network, db.store);
    const rebuilder = new StateRebuilder({
      blockStore: db.store,
      blockProcessor: rebuilt.processor,
      wallets: rebuilt.wallets,
      logger,
      rebuildBatchSize: 7,
    });
    const result = await rebuilder.rebuild();
    expect(result.height).toBe(150);
    expect(snapshot(rebuilt.wallets)).toEqual(snapshot(live.wallets));
    expect(rebuilt.processor.lastBlock?.id).toBe(live.processor.lastBlock?.id);

    // A vote balance that no longer matches its voters names the delegate's wallet.
    const delegate = rebuilt.wallets.byPublicKey(network.schedule.delegates[2] as string);
    const attributes = delegate?.attributes.delegate;
    if (!delegate || !attributes) throw new Error('fixture: delegate missing');
    rebuilt.wallets.update(delegate.address, {
      attributes: { delegate: { ...attributes, voteBalance: attributes.voteBalance + 1n } },
    });
    const error = await rebuilder.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConsistencyError);
    expect((error as StateConsistencyError).address).toBe(delegate.address);
  });

  it('serves blocks and judges blocks and transactions from peers', async () => {
    const { port } = chainPort();
    const tip = live.processor.lastBlock as FullBlock;
    expect(port.status()).toMatchObject({
      height: 150,
      header: { id: tip.id, totalFee: tip.totalFee },
    });

    // Full blocks are capped in bytes per answer, but at least one block is always served.
    const { port: capped } = chainPort();
    expect(await capped.blocksFrom(5, 3, { headersOnly: false, maxBytes: 1 })).toHaveLength(1);
    const served = await port.blocksFrom(5, 3, { headersOnly: false, maxBytes: 1_000_000 });
    expect(served.map((block) => block.header.id)).toEqual(blocks.slice(3, 6).map((b) => b.id));
    expect(served.map((block) => block.transactions)).toEqual(
      blocks.slice(3, 6).map((b) => (b.transactions ?? []).map((tx) => serializeTransaction(tx))),
    );
    const headers = await port.blocksFrom(5, 3, { headersOnly: true, maxBytes: 1 });
    expect(headers.map((block) => [block.header.height, block.transactions.length])).toEqual([
      [5, 0],
      [6, 0],
      [7, 0],
    ]);
    // A block served in parts (getBlocks) is taken back whole: the header and the bytes agree.
    expect(await port.acceptBlock(served[0]!, { ip: '10.0.0.1' })).toEqual({ status: 'known' });
    expect(await port.checkHeader(served[2]!.header)).toEqual({ valid: true });
    const tampered = { ...served[2]!.header, id: served[1]!.header.id, height: 9_999 };
    expect(await port.checkHeader(tampered)).toMatchObject({ valid: false });
    expect(await port.commonBlock(['nope', blocks[4]!.id, blocks[2]!.id])).toEqual({
      id: blocks[4]!.id,
      height: 6,
    });

    const hexOf = (block: FullBlock) => ({
      serialized: serializeFullBlock(block, network.milestones),
    });
    expect(await port.acceptBlock(hexOf(blocks[3]!), { ip: '10.0.0.1' })).toEqual({
      status: 'known',
    });
    // A stored block goes back to a peer that missed it (p2p's catch-up) in the bytes it had.
    expect(served.map((block) => port.serializeBlock(block))).toEqual(
      blocks.slice(3, 6).map((block) => hexOf(block).serialized),
    );
    const wrongForger = network.delegateKeys.find(
      (k) =>
        k.publicKey.toString('hex') !==
        network.schedule.forgerAt(151, (Math.floor(tip.timestamp / 8) + 1) * 8),
    );
    const bad = await port.acceptBlock(hexOf(nextBlock(network, tip, [], { keys: wrongForger })), {
      ip: '10.0.0.1',
    });
    expect(bad).toMatchObject({ status: 'invalid', reason: expect.stringContaining('generator') });
    expect(
      await port.acceptBlock({ serialized: Buffer.from('00ff', 'hex') }, { ip: '10.0.0.1' }),
    ).toMatchObject({ status: 'invalid' });

    const aliceNonce = live.wallets.get(addressOf(ALICE))?.nonce as bigint;
    const tx = transferOf(ALICE, addressOf(BOB), 5n, aliceNonce + 1n);
    const verdict = await port.acceptTransactions(
      [serializeTransaction(tx), Buffer.from('0102', 'hex')],
      { ip: '10.0.0.1' },
    );
    expect(verdict.accepted).toEqual([tx.id]);
    expect(verdict.invalid.map((i) => i.index)).toEqual([1]);

    const good = nextBlock(network, tip, [tx]);
    expect(await port.acceptBlock(hexOf(good), { ip: '10.0.0.1' })).toEqual({ status: 'accepted' });
    expect(live.processor.lastBlock?.id).toBe(good.id);
  });

  it("refuses a block with a transaction type it does not know (ARK's magistrate types) without blaming the sender", async () => {
    const warnings: { msg: string; detail?: string }[] = [];
    const { port } = chainPort({
      logger: {
        ...logger,
        warn: (fields: { detail?: string }, msg: string) => warnings.push({ ...fields, msg }),
      } as unknown as typeof logger,
    });
    const tip = live.processor.lastBlock as FullBlock;
    const nonce = live.wallets.get(addressOf(ALICE))?.nonce as bigint;
    const tx = transferOf(ALICE, addressOf(BOB), 9n, nonce + 1n);
    const bytes = serializeFullBlock(nextBlock(network, tip, [tx]), network.milestones);
    // The transaction is the block's last bytes: make its type group 2 (magistrate).
    const txStart = bytes.length - serializeTransaction(tx).length;
    bytes.writeUInt32LE(2, txStart + 3);
    const verdict = await port.acceptBlock({ serialized: bytes }, { ip: '10.0.0.9' });
    expect(verdict).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/unknown transaction type: .*typeGroup 2 type 0/),
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'Block refused: it holds a transaction type this node does not know',
        detail: expect.stringMatching(/typeGroup 2 type 0/),
      }),
    ]);
    expect(live.processor.lastBlock?.id).toBe(tip.id);
  });

  it('takes a second copy of the block it is applying as a duplicate, not a refusal', async () => {
    const lines: { level: string; msg: string; peer?: string; rule?: string }[] = [];
    const capture = (level: string) => (fields: object, msg: string) =>
      lines.push({ level, msg, ...fields });
    const { port } = chainPort({
      logger: {
        ...logger,
        info: capture('info'),
        debug: capture('debug'),
      } as unknown as typeof logger,
    });
    const tip = live.processor.lastBlock as FullBlock;
    const serialized = serializeFullBlock(nextBlock(network, tip, []), network.milestones);
    // Two peers relay the same block at once; the second copy waits behind the first.
    const verdicts = await Promise.all([
      port.acceptBlock({ serialized }, { ip: '127.0.0.1', port: 4001 }),
      port.acceptBlock({ serialized }, { ip: '127.0.0.1', port: 4002 }),
    ]);
    expect(verdicts).toEqual([{ status: 'accepted' }, { status: 'known' }]);
    expect(lines.filter((line) => line.level !== 'debug')).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'Block from peer already applied', peer: '127.0.0.1:4002' }),
    );
    // The tests below expect the chain as it was.
    await port.revertTo(tip.height);
  });

  it('names a peer whose block it refuses by ip and port', async () => {
    const lines: { msg: string; peer?: string; rule?: string }[] = [];
    const { port } = chainPort({
      logger: {
        ...logger,
        info: (fields: object, msg: string) => lines.push({ msg, ...fields }),
      } as unknown as typeof logger,
    });
    const tip = live.processor.lastBlock as FullBlock;
    const nonce = live.wallets.get(addressOf(ALICE))?.nonce as bigint;
    // A nonce in the future: the block breaks a transaction rule, an honest race at worst.
    const tx = transferOf(ALICE, addressOf(BOB), 3n, nonce + 5n);
    const serialized = serializeFullBlock(nextBlock(network, tip, [tx]), network.milestones);
    const verdict = await port.acceptBlock({ serialized }, { ip: '127.0.0.1', port: 4009 });
    expect(verdict).toMatchObject({ status: 'rejected' });
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'Block from peer refused', peer: '127.0.0.1:4009' }),
    ]);
  });

  it('hands p2p the transactions submitted to us, not those from peers', async () => {
    const { port, pool } = chainPort();
    const submitted: string[][] = [];
    const unsubscribe = port.onSubmittedTransactions((bytes) =>
      submitted.push(bytes.map((tx) => tx.toString('hex'))),
    );
    const nonce = live.wallets.get(addressOf(ALICE))?.nonce as bigint;
    const fromPeer = transferOf(ALICE, addressOf(BOB), 6n, nonce + 1n);
    const fromApi = transferOf(ALICE, addressOf(BOB), 7n, nonce + 2n);
    const hexOf = (tx: TransactionData) => serializeTransaction(tx).toString('hex');
    const verdict = await port.acceptTransactions([serializeTransaction(fromPeer)], {
      ip: '10.0.0.3',
    });
    expect(verdict.accepted).toEqual([fromPeer.id]);
    expect((await pool.add([fromApi])).accepted).toEqual([fromApi.id]);
    expect(submitted).toEqual([[hexOf(fromApi)]]);
    unsubscribe();
    await pool.add([transferOf(ALICE, addressOf(BOB), 8n, nonce + 3n)]);
    expect(submitted).toHaveLength(1);
  });

  it('gives peers our block ids by height and rolls back to a common block on a fork', async () => {
    const { port } = chainPort();
    const tip = live.processor.lastBlock as FullBlock;
    // Sync probes the last heights then ever further back; heights above ours are left out.
    const ids = await port.blockIds([tip.height, tip.height - 1, 100, 3, 1, tip.height + 5, 0]);
    expect(ids).toEqual([
      { id: tip.id, height: tip.height },
      { id: blocks[tip.height - 3]!.id, height: tip.height - 1 },
      { id: blocks[98]!.id, height: 100 },
      { id: blocks[1]!.id, height: 3 },
      { id: network.genesis.id, height: 1 },
    ]);

    await port.revertTo(140);
    expect(port.status()).toMatchObject({ height: 140, header: { id: blocks[138]!.id } });
    expect((await db.store.lastBlock())?.height).toBe(140);
    expect(await port.blockIds([141, 140])).toEqual([{ id: blocks[138]!.id, height: 140 }]);
    // The blocks reverted can be applied again: state went back exactly to height 140.
    for (const block of blocks.slice(139)) {
      const serialized = serializeFullBlock(block, network.milestones);
      expect(await port.acceptBlock({ serialized }, { ip: '10.0.0.2' })).toEqual({
        status: 'accepted',
      });
    }
    expect(port.status().height).toBe(150);
  });

  it('reverting every block returns the state after genesis and empties storage above it', async () => {
    await live.processor.revertTo(1);
    // Public keys learnt from a wallet's transactions stay known after a revert, as in ARK, and
    // a wallet emptied back to nothing stays in the repository (it reads as an unknown address).
    const knownBefore = new Set(afterGenesis.filter((w) => w.publicKey).map((w) => w.address));
    const comparable = snapshot(live.wallets)
      .map(({ publicKey, ...rest }) =>
        knownBefore.has(rest.address) ? { publicKey, ...rest } : rest,
      )
      .filter((w) => w.balance !== 0n || w.nonce !== 0n || Object.keys(w.attributes).length > 0);
    expect(comparable).toEqual(afterGenesis);
    expect((await db.store.lastBlock())?.height).toBe(1);
  });
});
