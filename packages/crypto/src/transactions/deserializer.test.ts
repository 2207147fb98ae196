import { describe, expect, it } from 'vitest';
import {
  DeserializationError,
  deserializeTransaction,
  multiPayment,
  serializeTransaction,
  transactionSignatures,
  transfer,
} from './index.js';

const recipient = 'D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax';
const signed = transfer({ network: 30 })
  .recipientId(recipient)
  .amount(1)
  .vendorField('hi')
  .nonce(1)
  .sign('s')
  .build();
const bytes = serializeTransaction(signed);

function failure(input: Uint8Array, limits = {}): DeserializationError {
  try {
    deserializeTransaction(input, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(DeserializationError);
    return error as DeserializationError;
  }
  throw new Error('expected a DeserializationError');
}

describe('deserializeTransaction errors', () => {
  it('reads a transaction back with its id, from a Buffer or a plain Uint8Array', () => {
    expect(deserializeTransaction(bytes)).toEqual(signed);
    expect(deserializeTransaction(new Uint8Array(bytes))).toEqual(signed);
  });

  it('reports truncation at the offset of the field that runs out', () => {
    const error = failure(bytes.subarray(0, 40));
    expect(error.reason).toBe('truncated');
    expect(error.offset).toBe(17);
    expect(error.message).toMatch(/senderPublicKey/);
  });

  it('reports unknown types, versions and markers', () => {
    const unknownType = Buffer.from(bytes);
    unknownType.writeUInt16LE(11, 7);
    expect(failure(unknownType)).toMatchObject({ reason: 'unknown-type', offset: 3 });
    const group = Buffer.from(bytes);
    group.writeUInt32LE(2, 3);
    expect(failure(group).reason).toBe('unknown-type');
    const version = Buffer.from(bytes);
    version[1] = 3;
    expect(failure(version)).toMatchObject({ reason: 'unsupported-version', offset: 1 });
    expect(failure(Buffer.from([0x00])).reason).toBe('malformed');
    expect(failure(Buffer.alloc(0)).reason).toBe('truncated');
  });

  it('refuses declared counts larger than the bytes left or the limits, before allocating', () => {
    const pay = multiPayment({ network: 30 })
      .addPayment(recipient, 1)
      .addPayment(recipient, 2)
      .sign('s')
      .build();
    const payBytes = serializeTransaction(pay);
    const countOffset = 59;
    expect(payBytes.readUInt16LE(countOffset)).toBe(2);
    const inflated = Buffer.from(payBytes);
    inflated.writeUInt16LE(0xffff, countOffset);
    expect(failure(inflated)).toMatchObject({ reason: 'oversized', offset: countOffset + 2 });
    expect(failure(payBytes, { maxMultiPayments: 1 })).toMatchObject({
      reason: 'oversized',
      offset: countOffset,
    });
    expect(failure(bytes, { maxVendorFieldLength: 1 })).toMatchObject({
      reason: 'oversized',
      offset: 58,
    });
  });

  it('refuses trailing bytes and vendor fields that are not UTF-8', () => {
    const second = transfer({ network: 30 })
      .recipientId(recipient)
      .amount(1)
      .sign('s')
      .secondSign('t')
      .build();
    const extended = Buffer.concat([serializeTransaction(second), Buffer.from([1, 2, 3])]);
    expect(failure(extended)).toMatchObject({
      reason: 'trailing-bytes',
      offset: extended.length - 3,
    });
    expect(failure(Buffer.concat([bytes, Buffer.from([1, 2, 3])])).reason).toBe('truncated');
    const badText = Buffer.from(bytes);
    badText[59] = 0xc3;
    badText[60] = 0x28;
    expect(failure(badText)).toMatchObject({ reason: 'malformed', offset: 59 });
  });
});

describe('transactionSignatures', () => {
  it('reads the signatures deserializeTransaction reads, and nothing else', () => {
    const twice = transfer({ network: 30 })
      .recipientId(recipient)
      .amount(5)
      .nonce(2)
      .sign('s')
      .secondSign('t')
      .build();
    for (const transaction of [signed, twice]) {
      const { signature, secondSignature } = deserializeTransaction(
        serializeTransaction(transaction),
      );
      expect(transactionSignatures(serializeTransaction(transaction))).toEqual({
        signature,
        ...(secondSignature !== undefined && { secondSignature }),
      });
    }
    expect(transactionSignatures(serializeTransaction(twice)).secondSignature).toHaveLength(128);
  });
});
