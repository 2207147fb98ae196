import { describe, expect, it } from 'vitest';
import {
  multiPayment,
  transactionFromJson,
  transactionToJson,
  TransactionError,
  transfer,
} from './index.js';

const recipient = 'D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax';

describe('transaction JSON', () => {
  it('writes amounts, fee and nonce as decimal strings and reads them back exactly', () => {
    const data = transfer({ network: 30 })
      .recipientId(recipient)
      .amount(2n ** 64n - 1n)
      .nonce(2n ** 60n)
      .sign('s')
      .build();
    const json = transactionToJson(data);
    expect(json.amount).toBe('18446744073709551615');
    expect(json.nonce).toBe('1152921504606846976');
    expect(json.timestamp).toBeUndefined();
    expect(transactionFromJson(JSON.parse(JSON.stringify(json)))).toEqual(data);
  });

  it('converts multipayment amounts too', () => {
    const data = multiPayment({ network: 30 })
      .addPayment(recipient, 7)
      .addPayment(recipient, 8)
      .sign('s')
      .build();
    const json = transactionToJson(data);
    expect(json.asset?.payments).toEqual([
      { amount: '7', recipientId: recipient },
      { amount: '8', recipientId: recipient },
    ]);
    expect(transactionFromJson(json)).toEqual(data);
  });

  it("reads ARK's older forms: signSignature, null recipient, no version or network", () => {
    const data = transactionFromJson(
      {
        type: 2,
        amount: '0',
        fee: 0,
        recipientId: null,
        senderPublicKey: '02511f16ffb7b7e9afc12f04f317a11d9644e4be9eb5a5f64673946ad0f6336f34',
        timestamp: 0,
        asset: { delegate: { username: 'genesis_1' } },
        signSignature: '3006020101020101',
      },
      { network: 30 },
    );
    expect(data).toMatchObject({ version: 1, network: 30, typeGroup: 1, fee: 0n, nonce: 0n });
    expect(data.recipientId).toBeUndefined();
    expect(data.secondSignature).toBe('3006020101020101');
  });

  it('names the field that cannot be read', () => {
    const field = (json: unknown) => {
      try {
        transactionFromJson(json);
      } catch (error) {
        expect(error).toBeInstanceOf(TransactionError);
        return (error as TransactionError).field;
      }
      throw new Error('expected a TransactionError');
    };
    const good = {
      version: 2,
      network: 30,
      type: 0,
      nonce: '1',
      senderPublicKey: 'aa',
      fee: '1',
      amount: '1',
    };
    expect(field({ ...good, fee: '-1' })).toBe('fee');
    expect(field({ ...good, amount: '1.5' })).toBe('amount');
    expect(field({ ...good, nonce: 2 ** 60 })).toBe('nonce');
    expect(field({ ...good, network: undefined })).toBe('network');
    expect(field({ ...good, version: 3 })).toBe('version');
    expect(field({ ...good, asset: { payments: [{ amount: 'x', recipientId: recipient }] } })).toBe(
      'asset.payments[0].amount',
    );
    expect(field([])).toBe('transaction');
  });
});
