import {
  addressFromPassphrase,
  addressFromPublicKey,
  multiPayment,
  transfer,
  type TransactionData,
} from '@lni/crypto';
import type { StoredTransaction } from '@lni/database';
import { storedTransactionOf } from '@lni/state';
import { describe, expect, it } from 'vitest';
import type { ChainContext } from '../resources/chain-context.js';
import { transactionResource } from '../resources/transaction.js';
import { storedTransactionView } from './stored-views.js';
import { TransactionJson } from './transaction-json.js';

const network = 23;
const options = { network };
const recipient = addressFromPassphrase('bob', network);
const contextAt = (height: number): ChainContext => ({
  height,
  epochStart: '2017-03-21T13:00:00.000Z',
  addressOf: (key) => addressFromPublicKey(key, network),
});

/** As the block store writes it, in a block at `height`; `asset` replaces the real one. */
function stored(tx: TransactionData, height: number, asset?: unknown): StoredTransaction {
  const written = storedTransactionOf(
    tx,
    { id: `block-${height}`, height, timestamp: height * 8 },
    0,
  );
  return asset === undefined ? written : { ...written, asset: asset as StoredTransaction['asset'] };
}

/** The JSON the parts make, read back. */
const read = (parts: ReturnType<TransactionJson['of']>) =>
  JSON.parse(Buffer.concat(Buffer.isBuffer(parts) ? [parts] : parts).toString()) as unknown;

/** What the resource says, as a client reads it. */
const expected = (transaction: StoredTransaction, context: ChainContext) =>
  JSON.parse(JSON.stringify(transactionResource(storedTransactionView(transaction), context)));

const payment = transfer(options)
  .recipientId(recipient)
  .amount(5)
  .nonce(1)
  .vendorField('rent')
  .sign('alice')
  .build();

describe('the JSON of confirmed transactions, kept by id', () => {
  it('is the resource at every height: only the confirmations move', () => {
    const json = new TransactionJson();
    const transaction = stored(payment, 10);
    const atTwelve = json.of(transaction, contextAt(12));
    expect(read(atTwelve)).toEqual(expected(transaction, contextAt(12)));
    expect(read(atTwelve)).toMatchObject({ confirmations: 3, vendorField: 'rent' });
    const atTwenty = json.of(transaction, contextAt(20));
    expect(read(atTwenty)).toEqual(expected(transaction, contextAt(20)));
    expect(read(atTwenty)).toMatchObject({ confirmations: 11 });
    // Kept, not built again: the same bytes around the new count.
    expect((atTwenty as Buffer[])[0]).toBe((atTwelve as Buffer[])[0]);
  });

  it('follows a transaction that a fork moved to another block', () => {
    const json = new TransactionJson();
    json.of(stored(payment, 10), contextAt(12));
    const moved = stored(payment, 11);
    expect(read(json.of(moved, contextAt(12)))).toMatchObject({
      blockId: 'block-11',
      confirmations: 2,
    });
  });

  it('leaves alone an asset that holds a "confirmations" key of its own', () => {
    const json = new TransactionJson();
    const payments = multiPayment(options)
      .addPayment(recipient, 3)
      .addPayment(recipient, 4)
      .nonce(2)
      .sign('alice')
      .build();
    const odd = stored(payments, 7, { payments: [{ confirmations: 1 }], confirmations: 99 });
    expect(read(json.of(odd, contextAt(9)))).toEqual(expected(odd, contextAt(9)));
    expect(read(json.of(odd, contextAt(9)))).toMatchObject({
      confirmations: 3,
      asset: { confirmations: 99 },
    });
  });
});
