import { Blocks, Managers, Transactions } from '@arkecosystem/crypto';
import {
  forgeBlock,
  keysFromPassphrase,
  Milestones,
  serializeFullBlock,
  serializeTransaction,
  transfer,
} from '@lni/crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { webhookEventData } from './webhook-event-data.js';

const require = createRequire(import.meta.url);
const milestones = new Milestones(
  require('@arkecosystem/crypto-networks/dist/devnet/milestones.json'),
);
const sender = keysFromPassphrase('a devnet sender');
const DEPOSIT = 'DNjuJEDQkhrJ7cA9FZ2iVXt5anYiM8Jtc9';
// Devnet's version 2 transactions (aip11) begin here, long after its full sha256 block ids.
const AIP11 = 4_006_000;

/** As ARK's webhooks post it: JSON, its BigNumbers as strings. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function arkAt(height: number): void {
  Managers.configManager.setFromPreset('devnet');
  Managers.configManager.setHeight(height);
}

describe("webhook data: ARK 3's data of each event", () => {
  const tx = transfer({ network: 30 })
    .recipientId(DEPOSIT)
    .amount(250_000_000)
    .vendorField('invoice 42')
    .nonce(3n)
    .sign(sender)
    .build();

  it("transaction.applied: the transaction itself, with its block, and LNI's block context", () => {
    arkAt(AIP11);
    const ark = asJson(Transactions.TransactionFactory.fromBytes(serializeTransaction(tx)).data);
    const block = { id: 'ab'.repeat(32), height: AIP11, timestamp: 40_000 };
    const data = webhookEventData('transaction.applied', { transaction: tx, block }, {});
    expect(data).toEqual({
      ...(ark as object),
      blockId: block.id,
      blockHeight: AIP11,
      block,
    });
    expect(data).toMatchObject({
      recipientId: DEPOSIT,
      amount: '250000000',
      vendorField: 'invoice 42',
    });
  });

  for (const [label, height, previousId, transactions] of [
    ['short ids', 500, '12345678901234567890', []],
    ['full ids', AIP11 + 1, 'cd'.repeat(32), [tx]],
  ] as const) {
    it(`block.applied and block.reverted: the header as ARK's block data holds it (${label})`, () => {
      const block = forgeBlock({
        transactions,
        previousBlock: { id: previousId, height: height - 1 },
        timestamp: 80_000_000,
        keys: sender,
        milestones,
      });
      arkAt(height);
      const ark = asJson(Blocks.BlockFactory.fromBytes(serializeFullBlock(block, milestones)).data);
      expect(webhookEventData('block.applied', { block }, {})).toEqual(ark);
      expect(webhookEventData('block.reverted', { block }, {})).toEqual(ark);
    });
  }

  it("forger.missing: the delegate's wallet, with the slot LNI knows", () => {
    const missed = { height: 9, round: 2, slot: 40, timestamp: 320, delegate: '02aa' };
    const wallet = { address: 'DAbc', publicKey: '02aa', balance: '1', nonce: '0', attributes: {} };
    expect(webhookEventData('forger.missing', missed, { delegateWallet: () => wallet })).toEqual({
      delegate: wallet,
      height: 9,
      round: 2,
      slot: 40,
      timestamp: 320,
    });
    expect(webhookEventData('forger.missing', missed, {})).toMatchObject({
      delegate: { publicKey: '02aa' },
    });
  });
});
