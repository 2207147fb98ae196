import { describe, expect, it } from 'vitest';
import { addressFromPublicKey } from '../identities/address.js';
import { keysFromPassphrase } from '../identities/keys.js';
import { transfer } from '../transactions/builders/transfer-builder.js';
import { serializeTransaction } from '../transactions/serializer.js';
import { testMilestones } from './__fixtures__/milestones.js';
import {
  BlockDeserializationError,
  blockFromJson,
  blockToJson,
  deserializeBlock,
  forgeBlock,
  readBlock,
  serializeBlockHeader,
  serializeFullBlock,
} from './index.js';

const keys = keysFromPassphrase('generator');
const recipient = addressFromPublicKey(keysFromPassphrase('recipient').publicKey, 23);
const transactions = [1n, 2n].map((amount) =>
  transfer({ network: 23 }).recipientId(recipient).amount(amount).nonce(amount).sign('s').build(),
);
const block = forgeBlock({
  transactions,
  previousBlock: { id: '987654321', height: 41 },
  timestamp: 336,
  keys,
  milestones: testMilestones,
});
const bytes = serializeFullBlock(block, testMilestones);
const headerLength = serializeBlockHeader(block, testMilestones).length;

function errorOf(input: Uint8Array): BlockDeserializationError {
  try {
    deserializeBlock(input, testMilestones);
  } catch (error) {
    if (error instanceof BlockDeserializationError) return error;
    throw error;
  }
  throw new Error('expected a BlockDeserializationError');
}

describe('deserializeBlock', () => {
  it('reads back the block it serialized, transactions included', () => {
    expect(deserializeBlock(bytes, testMilestones)).toEqual(block);
  });

  it('reads a header without transactions as a header-only block', () => {
    const header = deserializeBlock(bytes.subarray(0, headerLength), testMilestones);
    expect(header.id).toBe(block.id);
    expect(header.transactions).toBeUndefined();
  });

  it('keeps, with readBlock, the bytes each transaction was read from', () => {
    const read = readBlock(bytes, testMilestones);
    expect(read.block).toEqual(block);
    expect(read.serialized).toEqual(transactions.map((tx) => serializeTransaction(tx)));
    expect(readBlock(bytes.subarray(0, headerLength), testMilestones).serialized).toEqual([]);
  });

  it('names the field and offset where the bytes run out', () => {
    const error = errorOf(bytes.subarray(0, 10));
    expect(error.offset).toBe(8);
    expect(error.field).toBe('height');
  });

  it('refuses a transaction count the remaining bytes cannot hold, before allocating', () => {
    const header = Buffer.from(bytes.subarray(0, headerLength));
    header.writeUInt32LE(0xffffffff, 20);
    const error = errorOf(Buffer.concat([header, Buffer.alloc(8)]));
    expect(error.field).toBe('transactionLengths');
    expect(error.offset).toBe(headerLength);
  });

  it('points into the transaction that is malformed, counted from the block start', () => {
    const broken = Buffer.from(bytes);
    broken[headerLength + 8] = 0x00; // the first transaction's 0xff marker
    const error = errorOf(broken);
    expect(error.field).toBe('transactions[0]');
    expect(error.offset).toBe(headerLength + 8);
  });

  it('refuses bytes after the last transaction', () => {
    const error = errorOf(Buffer.concat([bytes, Buffer.from([1])]));
    expect(error.field).toBe('end');
    expect(error.offset).toBe(bytes.length);
  });
});

describe('block JSON', () => {
  it('round-trips through ARK’s JSON shape with amounts as strings', () => {
    const json = blockToJson(block);
    expect(json.totalAmount).toBe('3');
    expect(json.transactions?.[0]?.amount).toBe('1');
    expect(blockFromJson(JSON.parse(JSON.stringify(json)))).toEqual(block);
  });

  it('names the field that is not valid', () => {
    expect(() => blockFromJson({ ...blockToJson(block), totalFee: '-1' })).toThrow(/totalFee/);
  });
});
