import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { blockFromJson, Milestones, type BlockJson } from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { StateRebuilder } from '../boot/state-rebuilder.js';
import type { Wallet } from '../wallets/wallet.js';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { BlockProcessor } from './block-processor.js';
import { BlockRejectedError } from './block-rejected-error.js';
import { RoundRobinSchedule } from './__fixtures__/round-robin-schedule.js';
import { openTestStore } from './__fixtures__/test-database.js';

// ARK 3.0's own network files, as the oracle package ships them.
const require = createRequire(import.meta.url);
const arkNetwork = (name: string) => {
  const file = (part: string) =>
    require(`@arkecosystem/crypto-networks/dist/${name}/${part}.json`) as unknown;
  return {
    network: file('network') as { nethash: string; pubKeyHash: number },
    milestones: file('milestones') as ConstructorParameters<typeof Milestones>[0],
    genesisBlock: file('genesisBlock') as BlockJson & {
      transactions: { type: number; amount: string; senderPublicKey: string }[];
    },
  };
};

const byAddress = (a: Wallet, b: Wallet) => a.address.localeCompare(b.address);

describe("ARK 3.0 networks' genesis blocks, applied as configuration", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function processorFor(name: string, nethash?: string) {
    const ark = arkNetwork(name);
    const db = await openTestStore();
    close = db.close;
    const wallets = new WalletRepository();
    const processor = new BlockProcessor({
      wallets,
      milestones: new Milestones(ark.milestones),
      network: { pubKeyHash: ark.network.pubKeyHash, nethash: nethash ?? ark.network.nethash },
      forgingSchedule: new RoundRobinSchedule([], 8),
      blockStore: db.store,
      logger: createLogger({ level: 'fatal' }),
    });
    const genesis = blockFromJson(ark.genesisBlock, { network: ark.network.pubKeyHash });
    return { ark, db, wallets, processor, genesis };
  }

  for (const name of ['mainnet', 'devnet', 'testnet']) {
    it(`${name}: applies and stores the genesis block under its configured id`, async () => {
      const { ark, db, wallets, processor, genesis } = await processorFor(name);
      await processor.process(genesis);

      expect((await db.store.lastBlock())?.id).toBe(ark.genesisBlock.id);
      const registrations = ark.genesisBlock.transactions.filter((tx) => tx.type === 2);
      expect(wallets.delegateCount).toBe(registrations.length);
      // Genesis fees are zero: what the genesis wallet sent, the others received.
      const balances = [...wallets.all()].reduce((sum, wallet) => sum + wallet.balance, 0n);
      expect(balances).toBe(0n);
      const sent = ark.genesisBlock.transactions
        .filter((tx) => tx.type === 0)
        .reduce((sum, tx) => sum + BigInt(tx.amount), 0n);
      const received = [...wallets.all()]
        .filter((wallet) => wallet.balance > 0n)
        .reduce((sum, wallet) => sum + wallet.balance, 0n);
      expect(received).toBe(sent);
    });
  }

  it('testnet: every sender of a version-1 genesis transaction counts it in its nonce, live and rebuilt', async () => {
    const { ark, db, wallets, processor, genesis } = await processorFor('testnet');
    await processor.process(genesis);
    // ARK 3.x's state builder: a wallet's nonce is the number of transactions it sent.
    const sent = new Map<string, bigint>();
    for (const tx of ark.genesisBlock.transactions) {
      sent.set(tx.senderPublicKey, (sent.get(tx.senderPublicKey) ?? 0n) + 1n);
    }
    for (const wallet of wallets.all()) {
      expect(wallet.nonce).toBe((wallet.publicKey && sent.get(wallet.publicKey)) || 0n);
    }
    expect(wallets.byUsername('genesis_1')?.nonce).toBe(2n);
    // Its generator sent and received nothing; ARK still has its wallet, known by its key.
    expect(wallets.byPublicKey(genesis.generatorPublicKey)).toMatchObject({
      balance: 0n,
      nonce: 0n,
    });

    const rebuilt = new WalletRepository();
    await new StateRebuilder({
      blockStore: db.store,
      blockProcessor: new BlockProcessor({
        wallets: rebuilt,
        milestones: new Milestones(ark.milestones),
        network: { pubKeyHash: ark.network.pubKeyHash, nethash: ark.network.nethash },
        forgingSchedule: new RoundRobinSchedule([], 8),
        blockStore: db.store,
        logger: createLogger({ level: 'fatal' }),
      }),
      wallets: rebuilt,
      logger: createLogger({ level: 'fatal' }),
    }).rebuild();
    expect([...rebuilt.all()].sort(byAddress)).toEqual([...wallets.all()].sort(byAddress));
  });

  it("refuses a genesis block whose payload hash is not the network's nethash", async () => {
    const { db, wallets, processor, genesis } = await processorFor('devnet', 'ab'.repeat(32));
    const error = await processor.process(genesis).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockRejectedError);
    expect((error as BlockRejectedError).rule).toBe('payloadHash');
    expect((error as Error).message).toContain("is not the network's nethash");
    expect(await db.store.lastBlock()).toBeUndefined();
    expect(wallets.delegateCount).toBe(0);
  });
});
