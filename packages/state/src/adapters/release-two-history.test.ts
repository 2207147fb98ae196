import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  delegateRegistration,
  delegateResignation,
  HtlcLockExpirationType,
  htlcClaim,
  htlcLock,
  htlcRefund,
  ipfs,
  multiPayment,
  multiSignature,
  multiSignatureAddress,
  secondSignature,
  transfer,
  vote,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import { checkChainIntegrity } from '@lni/database';
import { createLogger } from '@lni/kernel';
import type { FullBlock } from '../blocks/block-store.js';
import {
  addressOf,
  ALICE,
  BOB,
  keysOf,
  legacyTestNetwork,
  nextBlock,
  PUB_KEY_HASH,
  testProcessor,
} from '../blocks/__fixtures__/test-chain.js';
import { openTestStore, openUpgradedTestStore } from '../blocks/__fixtures__/test-database.js';
import { poolOptions } from '../pool/pool-options.js';
import { TransactionPool } from '../pool/transaction-pool.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import { StateRebuilder } from '../boot/state-rebuilder.js';

const CAROL = 'carol passphrase of the release two history';
const DAVE = 'dave passphrase of the release two history';
const CAROL_SECOND = 'carol second passphrase of the release two history';
const DAVE_SECOND = 'dave second passphrase of the release two history';
const SECRET = '5e'.repeat(32);
const SECRET_HASH = createHash('sha256').update(Buffer.from(SECRET, 'hex')).digest('hex');
const AIP11_HEIGHT = 5;

const snapshot = (wallets: WalletRepository) =>
  [...wallets.all()].sort((a, b) => a.address.localeCompare(b.address));
const publicKeyOf = (passphrase: string) => keysOf(passphrase).publicKey.toString('hex');

/**
 * A chain as a real 2.7 network has it: a genesis block of version-1 transactions, version-1
 * blocks until AIP-11, then every core transaction type in version 2. Each sender's version-2
 * nonces continue the count of everything it sent before, version 1 included.
 */
describe('a chain with a release-2 past: version-1 transactions count in the nonce', () => {
  const network = legacyTestNetwork(AIP11_HEIGHT);
  const options = { network: PUB_KEY_HASH };
  const sent = new Map<string, bigint>();
  /** The nonce of the sender's next transaction (a version-1 one carries none but counts). */
  const nextNonce = (passphrase: string) => {
    const nonce = (sent.get(passphrase) ?? 0n) + 1n;
    sent.set(passphrase, nonce);
    return nonce;
  };
  const v1 = <T extends { version(v: 1): T; nonce(n: bigint): T }>(builder: T, sender: string) => {
    nextNonce(sender);
    return builder.version(1);
  };
  const multiSigned = multiSignatureAddress(2, [ALICE, BOB, CAROL].map(publicKeyOf), PUB_KEY_HASH);

  /** Block by block from height 2, what the chain carries: v1 until AIP-11, then every type in v2. */
  const chain = (): TransactionData[][] => {
    const lockForDave = htlcLock(options)
      .recipientId(addressOf(DAVE))
      .amount(3_000_000_000n)
      .htlcLockAsset({
        secretHash: SECRET_HASH,
        expiration: { type: HtlcLockExpirationType.BlockHeight, value: 30 },
      });
    const lockForCarol = htlcLock(options)
      .recipientId(addressOf(CAROL))
      .amount(1_000_000_000n)
      .htlcLockAsset({
        secretHash: SECRET_HASH,
        expiration: { type: HtlcLockExpirationType.BlockHeight, value: 9 },
      });
    const heights: TransactionData[][] = [
      // 2, 3, 4: release 2, version 1.
      [
        v1(transfer(options), ALICE)
          .recipientId(addressOf(CAROL))
          .amount(50_000_000_000n)
          .sign(keysOf(ALICE))
          .build(),
        v1(vote(options), ALICE)
          .vote(network.schedule.delegates[0] as string)
          .sign(keysOf(ALICE))
          .build(),
        v1(delegateRegistration(options), BOB).username('bob').sign(keysOf(BOB)).build(),
      ],
      [
        v1(transfer(options), ALICE)
          .recipientId(addressOf(DAVE))
          .amount(40_000_000_000n)
          .sign(keysOf(ALICE))
          .build(),
        v1(secondSignature(options), CAROL)
          .secondPassphrase(CAROL_SECOND)
          .sign(keysOf(CAROL))
          .build(),
      ],
      [
        v1(transfer(options), CAROL)
          .recipientId(addressOf(BOB))
          .amount(1_000_000_000n)
          .sign(keysOf(CAROL))
          .secondSign(keysOf(CAROL_SECOND))
          .build(),
        v1(vote(options), BOB).vote(publicKeyOf(BOB)).sign(keysOf(BOB)).build(),
      ],
      // 5: AIP-11, version 2 from here on.
      [
        transfer(options)
          .recipientId(addressOf(BOB))
          .amount(2_000_000_000n)
          .nonce(nextNonce(ALICE))
          .sign(keysOf(ALICE))
          .build(),
        transfer(options)
          .recipientId(addressOf(ALICE))
          .amount(1_000_000n)
          .nonce(nextNonce(CAROL))
          .sign(keysOf(CAROL))
          .secondSign(keysOf(CAROL_SECOND))
          .build(),
        secondSignature(options)
          .secondPassphrase(DAVE_SECOND)
          .nonce(nextNonce(DAVE))
          .sign(keysOf(DAVE))
          .build(),
        ipfs(options)
          .ipfsAsset('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG')
          .nonce(nextNonce(BOB))
          .sign(keysOf(BOB))
          .build(),
      ],
      [
        delegateRegistration(options)
          .username('carol')
          .nonce(nextNonce(CAROL))
          .sign(keysOf(CAROL))
          .secondSign(keysOf(CAROL_SECOND))
          .build(),
        vote(options)
          .votes([`-${network.schedule.delegates[0]}`, `+${publicKeyOf(BOB)}`])
          .nonce(nextNonce(ALICE))
          .sign(keysOf(ALICE))
          .build(),
        multiPayment(options)
          .addPayment(addressOf(CAROL), 10n)
          .addPayment(multiSigned, 5_000_000_000n)
          .nonce(nextNonce(BOB))
          .sign(keysOf(BOB))
          .build(),
      ],
      [
        multiSignature(options)
          .multiSignatureAsset({ min: 2, publicKeys: [ALICE, BOB, CAROL].map(publicKeyOf) })
          .nonce(nextNonce(ALICE))
          .senderPublicKey(publicKeyOf(ALICE))
          .multiSign(keysOf(ALICE), 0)
          .multiSign(keysOf(BOB), 1)
          .multiSign(keysOf(CAROL), 2)
          .sign(keysOf(ALICE))
          .build(),
        lockForDave.nonce(nextNonce(ALICE)).sign(keysOf(ALICE)).build(),
        lockForCarol.nonce(nextNonce(BOB)).sign(keysOf(BOB)).build(),
      ],
    ];
    heights.push(
      // 8: Dave claims his lock with the secret.
      [
        htlcClaim(options)
          .htlcClaimAsset({
            lockTransactionId: lockForDave.build().id as string,
            unlockSecret: SECRET,
          })
          .nonce(nextNonce(DAVE))
          .sign(keysOf(DAVE))
          .secondSign(keysOf(DAVE_SECOND))
          .build(),
      ],
      [],
      // 10: Carol's lock has expired; Bob takes it back, then resigns as a delegate.
      [
        htlcRefund(options)
          .htlcRefundAsset({ lockTransactionId: lockForCarol.build().id as string })
          .nonce(nextNonce(BOB))
          .sign(keysOf(BOB))
          .build(),
        delegateResignation(options).nonce(nextNonce(BOB)).sign(keysOf(BOB)).build(),
      ],
    );
    return heights;
  };

  let db: Awaited<ReturnType<typeof openTestStore>>;
  let live: ReturnType<typeof testProcessor>;
  let afterGenesis: ReturnType<typeof snapshot>;
  const blocks: FullBlock[] = [];

  beforeAll(async () => {
    db = await openTestStore();
    live = testProcessor(network, db.store);
    await live.processor.process(network.genesis);
    afterGenesis = snapshot(live.wallets);
    let previous = network.genesis;
    for (const transactions of chain()) {
      const block = nextBlock(network, previous, transactions);
      await live.processor.process(block);
      blocks.push(block);
      previous = block;
    }
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('after a version-1 genesis each delegate is at nonce 2 and the premine wallet at 2', () => {
    const nonces = new Map(afterGenesis.map((wallet) => [wallet.publicKey, wallet.nonce]));
    for (const delegate of network.schedule.delegates) expect(nonces.get(delegate)).toBe(2n);
    expect(nonces.get(network.genesis.generatorPublicKey)).toBe(2n);
  });

  it('takes version-2 transactions whose nonces continue the version-1 count, of every type', () => {
    const types = new Set(blocks.flatMap((block) => (block.transactions ?? []).map((t) => t.type)));
    expect([...types].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const [passphrase, count] of sent) {
      expect(live.wallets.get(addressOf(passphrase))?.nonce, passphrase).toBe(count);
    }
    expect(live.wallets.get(multiSigned)?.attributes.multiSignature?.min).toBe(2);
    expect(live.wallets.byUsername('bob')?.attributes.delegate?.resigned).toBe(true);
  });

  it('rebuilds from storage exactly the state applied live', async () => {
    const rebuilt = testProcessor(network, db.store);
    await new StateRebuilder({
      blockStore: db.store,
      blockProcessor: rebuilt.processor,
      wallets: rebuilt.wallets,
      logger: createLogger({ level: 'fatal' }),
      rebuildBatchSize: 3,
    }).rebuild();
    expect(snapshot(rebuilt.wallets)).toEqual(snapshot(live.wallets));
  });

  it('stored by ARK 2.7 and upgraded by db:migrate, the chain passes the boot check and rebuilds to the same state', async () => {
    const upgraded = await openUpgradedTestStore([network.genesis, ...blocks]);
    try {
      expect(await checkChainIntegrity(upgraded.database.manager)).toBe(blocks.length + 1);
      const rebuilt = testProcessor(network, upgraded.store);
      await new StateRebuilder({
        blockStore: upgraded.store,
        blockProcessor: rebuilt.processor,
        wallets: rebuilt.wallets,
        logger: createLogger({ level: 'fatal' }),
      }).rebuild();
      expect(snapshot(rebuilt.wallets)).toEqual(snapshot(live.wallets));
    } finally {
      await upgraded.close();
    }
  });

  it('reverting to genesis takes every nonce back; applying again reaches the same state', async () => {
    const tip = snapshot(live.wallets);
    await live.processor.revertTo(1);
    const nonces = (wallets: readonly { address: string; nonce: bigint }[]) =>
      new Map(wallets.filter((w) => w.nonce !== 0n).map((w) => [w.address, w.nonce]));
    expect(nonces(snapshot(live.wallets))).toEqual(nonces(afterGenesis));
    for (const block of blocks) await live.processor.process(block);
    expect(snapshot(live.wallets)).toEqual(tip);
  });

  it("a genesis delegate's first version-2 transaction carries nonce 3: the pool and a block take it", async () => {
    const pool = new TransactionPool({
      wallets: live.wallets,
      milestones: network.milestones,
      network: { pubKeyHash: PUB_KEY_HASH },
      tip: () => live.processor.lastBlock as FullBlock,
      poolOptions: poolOptions({ staticFees: false }),
      logger: createLogger({ level: 'fatal' }),
    });
    // A delegate that has forged holds its rewards.
    const index = network.delegateKeys.findIndex(
      (keys) => (live.wallets.byPublicKey(keys.publicKey.toString('hex'))?.balance ?? 0n) > 0n,
    );
    const keys = network.delegateKeys[index] as KeyPair;
    const payment = (nonce: bigint) =>
      transfer(options).recipientId(addressOf(ALICE)).amount(1n).nonce(nonce).sign(keys).build();
    expect((await pool.add([payment(1n)])).rejected[0]).toMatchObject({
      reason: 'ERR_TX_NONCE',
      message: 'nonce: expected 3, got 1',
    });
    const accepted = payment(3n);
    expect((await pool.add([accepted])).accepted).toEqual([accepted.id]);
    const block = nextBlock(
      network,
      live.processor.lastBlock as FullBlock,
      pool.collect().map((entry) => entry.tx),
    );
    expect(block.transactions?.map((tx) => tx.id)).toEqual([accepted.id]);
    await live.processor.process(block);
    expect(live.wallets.byPublicKey(keys.publicKey.toString('hex'))?.nonce).toBe(3n);
  });
});
