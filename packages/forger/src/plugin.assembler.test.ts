import {
  addressFromPassphrase,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  readBlock,
  serializeFullBlock,
  serializeTransaction,
  transfer,
} from '@lni/crypto';
import { describe, expect, it } from 'vitest';
import { cryptoBlockAssembler } from './plugin.js';

const network = generateNetwork({ name: 'testnet', delegates: 3, pubKeyHash: 23 });
const milestones = new Milestones(network.milestones);
const keys = keysFromPassphrase(network.secrets[0] as string);
const transactions = [1n, 2n, 3n].map((nonce) =>
  transfer({ network: 23 })
    .recipientId(addressFromPassphrase('assembler recipient', 23))
    .amount(nonce * 1_000n)
    .nonce(nonce)
    .sign('assembler sender passphrase')
    .build(),
);
const template = {
  keys,
  previousBlock: { id: network.genesisBlock.id as string, height: 1 },
  timestamp: 800,
  reward: 0n,
  transactions: transactions.map((tx) => serializeTransaction(tx).toString('hex')),
};

describe('cryptoBlockAssembler', () => {
  it("makes, byte for byte, the block forgeBlock makes of the relay's transactions", () => {
    const assembled = cryptoBlockAssembler(milestones)(template);
    const expected = forgeBlock({ ...template, transactions, milestones });
    expect(assembled).toEqual({
      id: expected.id,
      height: 2,
      numberOfTransactions: 3,
      serialized: serializeFullBlock(expected, milestones),
    });
  });

  it('carries each transaction in the bytes the relay sent', () => {
    const { serialized } = cryptoBlockAssembler(milestones)(template);
    const read = readBlock(serialized, milestones);
    expect(read.serialized.map((bytes) => bytes.toString('hex'))).toEqual(template.transactions);
    expect(read.block.transactions?.map((tx) => tx.id)).toEqual(transactions.map((tx) => tx.id));
  });
});
