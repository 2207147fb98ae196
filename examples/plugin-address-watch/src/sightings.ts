import { addressFromPublicKey, type TransactionData } from '@lni/crypto';

/** Money leaving a watched address (it sent the transaction) or reaching it. */
export type Direction = 'in' | 'out';

/** A transaction that touched a watched address, as the plugin stores and serves it. */
export interface Sighting {
  readonly address: string;
  readonly transactionId: string;
  readonly height: number;
  /** Satoshi: what the transaction moved from or to this address. */
  readonly amount: bigint;
  readonly direction: Direction;
}

/**
 * The sightings one transaction makes of the watched addresses: `out` for its sender, `in` for
 * each recipient (a transfer's, or a multipayment's, with the payments to one address summed).
 */
export function sightingsOf(
  transaction: TransactionData,
  height: number,
  watched: ReadonlySet<string>,
): Sighting[] {
  const id = transaction.id;
  if (id === undefined) return [];
  const received = new Map<string, bigint>();
  const receive = (address: string | undefined, amount: bigint) => {
    if (address !== undefined && watched.has(address)) {
      received.set(address, (received.get(address) ?? 0n) + amount);
    }
  };
  receive(transaction.recipientId, transaction.amount);
  for (const payment of transaction.asset?.payments ?? [])
    receive(payment.recipientId, payment.amount);

  const sightings: Sighting[] = [];
  const sender = addressFromPublicKey(transaction.senderPublicKey, transaction.network);
  if (watched.has(sender)) {
    const sent = [...(transaction.asset?.payments ?? [])].reduce(
      (sum, payment) => sum + payment.amount,
      transaction.amount,
    );
    sightings.push({ address: sender, transactionId: id, height, amount: sent, direction: 'out' });
  }
  for (const [address, amount] of received) {
    sightings.push({ address, transactionId: id, height, amount, direction: 'in' });
  }
  return sightings;
}
