import { afterAll, describe, expect, it } from 'vitest';
import { addressFromPublicKey } from '../identities/address.js';
import { keysFromPassphrase, type KeyPair } from '../identities/keys.js';
import { Milestones } from '../networks/milestones.js';
import { transfer } from '../transactions/builders/transfer-builder.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import { transactionId } from '../transactions/transaction-hash.js';
import { VerificationPool } from '../verification/verification-pool.js';
import { testMilestoneEntries, testMilestones } from './__fixtures__/milestones.js';
import { serializeTransaction } from '../transactions/serializer.js';
import {
  blockId,
  forgeBlock,
  readBlock,
  serializeFullBlock,
  payloadHashOf,
  signBlockHeader,
  verifyBlock,
  verifyBlockInPool,
  verifyBlocksInPool,
  type BlockData,
  type BlockRule,
} from './index.js';

const NETWORK = 23;
const generator = keysFromPassphrase('generator');
const recipient = addressFromPublicKey(keysFromPassphrase('recipient').publicKey, NETWORK);

function transfers(count: number, options: { expiration?: number } = {}): TransactionData[] {
  return Array.from({ length: count }, (_, index) =>
    transfer({ network: NETWORK })
      .recipientId(recipient)
      .amount(1000n + BigInt(index))
      .fee(10n)
      .nonce(BigInt(index + 1))
      .expiration(options.expiration ?? 0)
      .sign('sender passphrase')
      .build(),
  );
}

function forge(transactions: TransactionData[], milestones = testMilestones) {
  return forgeBlock({
    transactions,
    previousBlock: { id: '12345', height: 9 },
    timestamp: 800,
    keys: generator,
    milestones,
  });
}

/** The block with some fields changed, signed again and given its new id, so only the changed
 * rule can fail. */
function altered(
  block: BlockData<TransactionData>,
  changes: Partial<BlockData<TransactionData>>,
  keys: KeyPair = generator,
  milestones = testMilestones,
): BlockData<TransactionData> {
  const { id: _id, blockSignature: _signature, ...header } = { ...block, ...changes };
  const draft = { ...header, generatorPublicKey: keys.publicKey.toString('hex') };
  const signed = { ...draft, blockSignature: signBlockHeader(draft, keys.privateKey, milestones) };
  return { ...signed, id: blockId(signed, milestones) };
}

function rulesOf(block: BlockData<TransactionData>, milestones = testMilestones): BlockRule[] {
  return verifyBlock(block, milestones).failures.map((failure) => failure.rule);
}

let pool: VerificationPool | undefined;
afterAll(async () => {
  await pool?.close();
});

describe('verifyBlock', () => {
  it('accepts a block as the forger makes it', () => {
    const block = forge(transfers(3));
    expect(verifyBlock(block, testMilestones)).toEqual({ verified: true, failures: [] });
    expect(verifyBlock(forge([]), testMilestones).verified).toBe(true);
  });

  it('rejects a block signed by a key other than the generator’s', () => {
    const block = forge(transfers(2));
    const other = keysFromPassphrase('someone else');
    const draft = { ...block, generatorPublicKey: generator.publicKey.toString('hex') };
    const forged = {
      ...draft,
      blockSignature: signBlockHeader(draft, other.privateKey, testMilestones),
    };
    expect(rulesOf({ ...forged, id: blockId(forged, testMilestones) })).toEqual(['signature']);
  });

  it('rejects a block whose id is not the hash of its header', () => {
    expect(rulesOf({ ...forge(transfers(1)), id: '42' })).toEqual(['id']);
  });

  it.each([
    ['payloadHash', { payloadHash: 'ab'.repeat(32) }],
    ['payloadLength', { payloadLength: 33 }],
    ['numberOfTransactions', { numberOfTransactions: 3 }],
    ['totalAmount', { totalAmount: 5n }],
    ['totalFee', { totalFee: 0n }],
    ['version', { version: 1 }],
    ['reward', { reward: 1n }],
    ['previousBlock', { previousBlock: null }],
  ] as const)('rejects a block whose %s does not hold', (rule, changes) => {
    expect(rulesOf(altered(forge(transfers(2)), changes))).toEqual([rule]);
  });

  it('rejects more transactions than the milestone allows, except in the genesis block', () => {
    const strict = new Milestones([
      { ...testMilestoneEntries[0]!, block: { version: 0, maxTransactions: 2, maxPayload: 1e6 } },
      ...testMilestoneEntries.slice(1),
    ]);
    expect(rulesOf(forge(transfers(3), strict), strict)).toEqual(['maxTransactions']);
    const genesis = forgeBlock({
      transactions: transfers(3),
      timestamp: 0,
      keys: generator,
      milestones: strict,
    });
    expect(rulesOf(genesis, strict)).toEqual([]);
  });

  it('rejects a block larger than the milestone’s maxPayload', () => {
    const small = new Milestones([
      { ...testMilestoneEntries[0]!, block: { version: 0, maxTransactions: 150, maxPayload: 400 } },
      ...testMilestoneEntries.slice(1),
    ]);
    expect(rulesOf(forge(transfers(1), small), small)).toEqual([]);
    expect(rulesOf(forge(transfers(2), small), small)).toEqual(['maxPayload']);
  });

  it('names the transaction whose id is wrong', () => {
    const [first, second] = transfers(2) as [TransactionData, TransactionData];
    const block = forge([first, { ...second, id: 'ab'.repeat(32) }]);
    // The forger hashed the claimed id into the payload, so that no longer matches either.
    expect(verifyBlock(block, testMilestones).failures).toEqual([
      expect.objectContaining({ rule: 'payloadHash' }),
      expect.objectContaining({ rule: 'transactionId', transaction: 1 }),
    ]);
  });

  it('names the transaction whose signature does not cover its content', () => {
    const [first, second] = transfers(2) as [TransactionData, TransactionData];
    const tampered = { ...second, amount: second.amount + 1n };
    const block = forge([first, { ...tampered, id: transactionId(tampered) }]);
    expect(verifyBlock(block, testMilestones).failures).toEqual([
      expect.objectContaining({ rule: 'transactionSignature', transaction: 1 }),
    ]);
  });

  it('rejects a transaction that appears twice and one that has expired', () => {
    const [first] = transfers(1) as [TransactionData];
    expect(rulesOf(forge([first, first]))).toEqual(['duplicateTransaction']);
    expect(rulesOf(forge(transfers(1, { expiration: 10 })))).toEqual(['expiredTransaction']);
    expect(rulesOf(forge(transfers(1, { expiration: 11 })))).toEqual([]);
  });

  it('reports every broken rule at once', () => {
    const block = altered(forge(transfers(2)), { totalFee: 1n, payloadHash: payloadHashOf([]) });
    expect(rulesOf({ ...block, id: '1' }).sort()).toEqual(['id', 'payloadHash', 'totalFee']);
  });

  it('gives the same verdicts when the worker pool checks the signatures', async () => {
    pool = new VerificationPool({ size: 1 });
    const good = forge(transfers(3));
    const [first, second] = transfers(2) as [TransactionData, TransactionData];
    const tampered = { ...second, fee: 11n };
    const bad = forge([first, { ...tampered, id: transactionId(tampered) }]);
    expect(await verifyBlockInPool(good, testMilestones, pool)).toEqual(
      verifyBlock(good, testMilestones),
    );
    expect(await verifyBlockInPool(bad, testMilestones, pool)).toEqual(
      verifyBlock(bad, testMilestones),
    );
    expect((await verifyBlockInPool(bad, testMilestones, pool)).verified).toBe(false);
    const batch = await verifyBlocksInPool([good, bad, good], testMilestones, pool);
    expect(batch.map((result) => result.verified)).toEqual([true, false, true]);
    expect(batch[1]).toEqual(verifyBlock(bad, testMilestones));
  });

  it('takes the bytes a block was read from as its transactions, with the same verdicts', () => {
    const [first, second] = transfers(2) as [TransactionData, TransactionData];
    const tampered = { ...second, amount: second.amount + 1n };
    for (const block of [
      forge([first, second]),
      forge([first, { ...tampered, id: transactionId(tampered) }]),
    ]) {
      const read = readBlock(serializeFullBlock(block, testMilestones), testMilestones);
      expect(read.serialized.map((bytes) => bytes.toString('hex'))).toEqual(
        [first, block.transactions?.[1] as TransactionData].map((tx) =>
          serializeTransaction(tx).toString('hex'),
        ),
      );
      expect(verifyBlock(read.block, testMilestones, { serialized: read.serialized })).toEqual(
        verifyBlock(block, testMilestones),
      );
    }
  });

  it('does not check again the signatures the caller verified under the same registrations', () => {
    const [first, second] = transfers(2) as [TransactionData, TransactionData];
    const tampered = { ...second, amount: second.amount + 1n };
    const id = transactionId(tampered);
    const block = forge([first, { ...tampered, id }]);
    const asked: unknown[] = [];
    const registrationsOf = () => ({ secondPublicKey: generator.publicKey.toString('hex') });
    const vouched = verifyBlock(block, testMilestones, {
      verifiedBefore: (txId, registrations) => {
        asked.push([txId, registrations]);
        return true;
      },
    });
    // The caller vouched for both (wrongly, for the tampered one): no signature was checked.
    expect(vouched).toEqual({ verified: true, failures: [] });
    expect(asked).toEqual([
      [first.id, {}],
      [id, {}],
    ]);
    const withRegistrations = verifyBlock(block, testMilestones, {
      registrationsOf,
      verifiedBefore: (_id, registrations) => registrations.secondPublicKey === undefined,
    });
    expect(withRegistrations.failures.map((failure) => failure.rule)).toEqual([
      'transactionSignature',
      'transactionSignature',
    ]);
  });

  it('asks about the id it computes, not the id a transaction claims', () => {
    const [first, second] = transfers(2) as [TransactionData, TransactionData];
    const tampered = { ...second, amount: second.amount + 1n };
    // The tampered transaction claims the id of the one its signature was made for.
    const block = forge([first, { ...tampered, id: second.id as string }]);
    const result = verifyBlock(block, testMilestones, {
      verifiedBefore: (txId) => txId === second.id || txId === first.id,
    });
    expect(result.failures.map((failure) => [failure.rule, failure.transaction])).toEqual([
      ['payloadHash', undefined],
      ['transactionId', 1],
      ['transactionSignature', 1],
    ]);
  });
});
