/**
 * The generated chain the boot benchmarks replay: transfers, multipayments and votes from 1,000
 * funded senders to RECIPIENTS recipients, in blocks of 150, stored through a BlockStore.
 * Signatures are random bytes: a replay never checks them (stored blocks were verified when
 * they were applied), and signing a million transactions would only make the set-up slow.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  addressFromPublicKey,
  blockFromJson,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  multiPayment,
  transactionId,
  transfer,
  vote,
  type TransactionData,
} from '@lni/crypto';
import type { BlockStore, FullBlock } from '../src/blocks/block-store.js';

const PER_BLOCK = 150;
const SENDERS = 1_000;
export const PUB_KEY_HASH = 23;

const senders = Array.from({ length: SENDERS }, (_, i) =>
  keysFromPassphrase(`rebuild sender ${i}`),
);
const senderKeys = senders.map((keys) => keys.publicKey.toString('hex'));
let secret = 0;
export const generated = generateNetwork({
  name: 'rebuildbench',
  delegates: 51,
  pubKeyHash: PUB_KEY_HASH,
  epoch: '2026-01-01T00:00:00.000Z',
  maxTransactions: 500,
  balances: senders.map((keys) => ({
    address: addressFromPublicKey(keys.publicKey, PUB_KEY_HASH),
    amount: 10_000_000_000_000n,
  })),
  createSecret: () => `rebuild bench delegate ${secret++}`,
});
export const milestones = new Milestones(generated.milestones);
const options = { network: PUB_KEY_HASH, milestone: milestones.at(2) };
const delegateKeys = generated.secrets.map((delegate) => keysFromPassphrase(delegate));
export const delegatePublicKeys = delegateKeys.map((keys) => keys.publicKey.toString('hex'));

/** The finished transaction with a stand-in signature and the id that signature gives it. */
function withFakeSignature(data: TransactionData): TransactionData {
  const signed = { ...data, signature: randomBytes(64).toString('hex') };
  return { ...signed, id: transactionId(signed) };
}

/** Stores the genesis block and `totalTx` transactions after it; returns the last block. */
export async function storeGeneratedChain(
  store: Pick<BlockStore, 'save'>,
  totalTx: number,
  recipientCount: number,
): Promise<FullBlock> {
  const recipients = Array.from({ length: recipientCount }, (_, i) =>
    addressFromPublicKey(keysFromPassphrase(`rebuild recipient ${i}`).publicKey, PUB_KEY_HASH),
  );
  const nonces = new Array<bigint>(SENDERS).fill(0n);
  const nextTransaction = (n: number): TransactionData => {
    const sender = n % SENDERS;
    const nonce = (nonces[sender] = (nonces[sender] as bigint) + 1n);
    const publicKey = senderKeys[sender] as string;
    if (nonce === 1n) {
      const delegate = delegatePublicKeys[sender % delegatePublicKeys.length] as string;
      return withFakeSignature(
        vote(options).vote(delegate).nonce(nonce).senderPublicKey(publicKey).build(),
      );
    }
    if (n % 20 === 0) {
      const payments = multiPayment(options).nonce(nonce).senderPublicKey(publicKey);
      for (let p = 0; p < 10; p++)
        payments.addPayment(recipients[(n + p * 7919) % recipientCount] as string, 1_000);
      return withFakeSignature(payments.build());
    }
    return withFakeSignature(
      transfer(options)
        .recipientId(recipients[(n * 31) % recipientCount] as string)
        .amount(1_000)
        .nonce(nonce)
        .senderPublicKey(publicKey)
        .build(),
    );
  };
  const genesis = blockFromJson(generated.genesisBlock, { network: PUB_KEY_HASH });
  await store.save(genesis);
  console.log(`storing ${totalTx} transactions in blocks of ${PER_BLOCK}...`);
  const storeStarted = performance.now();
  let previous: FullBlock = genesis;
  for (let made = 0; made < totalTx;) {
    const count = Math.min(PER_BLOCK, totalTx - made);
    const transactions = Array.from({ length: count }, (_, i) => nextTransaction(made + i));
    const height = previous.height + 1;
    previous = forgeBlock({
      transactions,
      previousBlock: previous,
      timestamp: (height - 1) * 8,
      keys: delegateKeys[height % delegateKeys.length]!,
      milestones,
    });
    await store.save(previous);
    made += count;
  }
  console.log(
    `stored ${totalTx} transactions in ${previous.height - 1} blocks ` +
      `(${((performance.now() - storeStarted) / 1000).toFixed(0)} s)`,
  );
  return previous;
}
