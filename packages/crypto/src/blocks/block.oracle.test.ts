import { Blocks, Crypto, Identities, Managers, Transactions } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressFromPublicKey } from '../identities/address.js';
import { keysFromPassphrase } from '../identities/keys.js';
import { transfer } from '../transactions/builders/transfer-builder.js';
import { FULL_ID_HEIGHT, testMilestoneEntries, testMilestones } from './__fixtures__/milestones.js';
import { deserializeBlock, forgeBlock, serializeFullBlock, verifyBlock } from './index.js';

const NETWORK = 23;
const RUNS = 40;
const generator = keysFromPassphrase('oracle generator');
const senders = ['alice', 'bob', 'carol'].map((name) => `${name} oracle passphrase`);
const recipient = addressFromPublicKey(keysFromPassphrase('recipient').publicKey, NETWORK);

const blockShape = fc.record({
  height: fc.oneof(
    fc.integer({ min: 2, max: 10_000 }),
    fc.integer({ min: FULL_ID_HEIGHT - 1, max: FULL_ID_HEIGHT + 2 }),
  ),
  timestamp: fc.integer({ min: 0, max: 100_000_000 }),
  transfers: fc.array(
    fc.record({
      sender: fc.nat({ max: senders.length - 1 }),
      amount: fc.bigInt({ min: 1n, max: 10n ** 15n }),
      fee: fc.bigInt({ min: 1n, max: 10n ** 9n }),
    }),
    { maxLength: 12 },
  ),
  previousShort: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
  previousFull: fc.uint8Array({ minLength: 32, maxLength: 32 }),
});

beforeAll(() => {
  const testnet = Managers.configManager.getPreset('testnet');
  Managers.configManager.setConfig({ ...testnet, milestones: testMilestoneEntries } as never);
  // ARK judges version-2 transactions by the milestone of its current height.
  Managers.configManager.setHeight(2);
});

describe('full blocks agree with ARK 3.0 (@arkecosystem/crypto 3.12.0)', () => {
  it('ARK reads our blocks to the same bytes and id and verifies them', () => {
    fc.assert(
      fc.property(blockShape, (shape) => {
        const nonces = new Map<number, bigint>();
        const transactions = shape.transfers.map(({ sender, amount, fee }) => {
          const nonce = (nonces.get(sender) ?? 0n) + 1n;
          nonces.set(sender, nonce);
          return transfer({ network: NETWORK })
            .recipientId(recipient)
            .amount(amount)
            .fee(fee)
            .nonce(nonce)
            .sign(senders[sender]!)
            .build();
        });
        const previousId =
          shape.height - 1 >= FULL_ID_HEIGHT
            ? Buffer.from(shape.previousFull).toString('hex')
            : shape.previousShort.toString();
        const block = forgeBlock({
          transactions,
          previousBlock: { id: previousId, height: shape.height - 1 },
          timestamp: shape.timestamp,
          keys: generator,
          milestones: testMilestones,
        });
        const bytes = serializeFullBlock(block, testMilestones);

        const ark = Blocks.BlockFactory.fromBytes(bytes)!;
        expect(ark.verification.errors).toEqual([]);
        expect(ark.data.id).toBe(block.id);
        expect(
          Blocks.Serializer.serializeWithTransactions({
            ...ark.data,
            transactions: ark.transactions.map((tx) => tx.data),
          }).toString('hex'),
        ).toBe(bytes.toString('hex'));
        expect(ark.transactions.map((tx) => tx.id)).toEqual(transactions.map((tx) => tx.id));
      }),
      { numRuns: RUNS },
    );
  });

  it('we read blocks ARK forges to the same id and verify them', () => {
    fc.assert(
      fc.property(blockShape, (shape) => {
        const nonces = new Map<number, bigint>();
        const arkTransactions = shape.transfers.map(({ sender, amount, fee }) => {
          const nonce = (nonces.get(sender) ?? 0n) + 1n;
          nonces.set(sender, nonce);
          return Transactions.BuilderFactory.transfer()
            .version(2)
            .network(NETWORK)
            .recipientId(recipient)
            .amount(amount.toString())
            .fee(fee.toString())
            .nonce(nonce.toString())
            .sign(senders[sender]!)
            .build();
        });
        const previousHeight = shape.height - 1;
        const previousId =
          previousHeight >= FULL_ID_HEIGHT
            ? Buffer.from(shape.previousFull).toString('hex')
            : shape.previousShort.toString();
        const arkKeys = Identities.Keys.fromPassphrase('oracle generator');
        const ids = arkTransactions.map((tx) => Buffer.from(tx.id!, 'hex'));
        const sum = (pick: (tx: (typeof arkTransactions)[number]) => bigint) =>
          arkTransactions.reduce((total, tx) => total + pick(tx), 0n).toString();
        const ark = Blocks.BlockFactory.make(
          {
            version: 0,
            timestamp: shape.timestamp,
            height: shape.height,
            previousBlock: previousId,
            numberOfTransactions: arkTransactions.length,
            totalAmount: sum((tx) => BigInt(tx.data.amount.toString())),
            totalFee: sum((tx) => BigInt(tx.data.fee.toString())),
            reward: String(testMilestones.at(shape.height).reward),
            payloadLength: 32 * arkTransactions.length,
            payloadHash: Crypto.HashAlgorithms.sha256(ids).toString('hex'),
            transactions: arkTransactions.map((tx) => tx.data),
          } as never,
          arkKeys,
        )!;
        const bytes = Buffer.from(ark.serialized, 'hex');

        const ours = deserializeBlock(bytes, testMilestones);
        expect(ours.id).toBe(ark.data.id);
        expect(verifyBlock(ours, testMilestones).failures).toEqual([]);
        expect(serializeFullBlock(ours, testMilestones).toString('hex')).toBe(ark.serialized);
      }),
      { numRuns: RUNS },
    );
  });
});
