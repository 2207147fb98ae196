import { describe, expect, it } from 'vitest';
import { serializeTransaction, TransactionError, transfer, type TransactionData } from './index.js';

const data = transfer({ network: 30 })
  .recipientId('D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax')
  .amount(1)
  .nonce(1)
  .sign('s')
  .build();

function fieldOf(bad: TransactionData): string {
  try {
    serializeTransaction(bad);
  } catch (error) {
    expect(error).toBeInstanceOf(TransactionError);
    return (error as TransactionError).field;
  }
  throw new Error('expected a TransactionError');
}

describe('serializeTransaction on data it cannot write', () => {
  it('names the field instead of truncating or crashing', () => {
    expect(fieldOf({ ...data, network: 256 })).toBe('network');
    expect(fieldOf({ ...data, fee: -1n })).toBe('fee');
    expect(fieldOf({ ...data, amount: 2n ** 64n })).toBe('amount');
    expect(fieldOf({ ...data, expiration: 1.5 })).toBe('expiration');
    expect(fieldOf({ ...data, senderPublicKey: 'zz' })).toBe('senderPublicKey');
    expect(fieldOf({ ...data, signature: 'ab' })).toBe('signature');
    expect(fieldOf({ ...data, vendorField: 'x'.repeat(256) })).toBe('vendorField');
    expect(fieldOf({ ...data, type: 42 })).toBe('type');
    const { recipientId: _recipient, ...noRecipient } = data;
    expect(fieldOf(noRecipient)).toBe('recipientId');
  });

  it('leaves out what a signature does not cover', () => {
    const full = serializeTransaction(data);
    const unsigned = serializeTransaction(data, { excludeSignature: true });
    expect(full.length - unsigned.length).toBe(64);
    expect(full.subarray(0, unsigned.length)).toEqual(unsigned);
  });
});
