import type { TransactionData } from '@lni/crypto';
import { toJsonValue } from './json-values.js';

/** An unconfirmed transaction in ARK 3.0's shape: no block, no confirmations. */
export function unconfirmedResource(
  transaction: TransactionData,
  addressOf: (publicKey: string) => string,
): Record<string, unknown> {
  const json = toJsonValue(transaction) as Record<string, unknown>;
  const { network: _network, recipientId, secondSignature, ...rest } = json;
  return {
    ...rest,
    sender: addressOf(transaction.senderPublicKey),
    ...(recipientId !== undefined && { recipient: recipientId }),
    ...(secondSignature !== undefined && { signSignature: secondSignature }),
  };
}
