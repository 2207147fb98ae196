import type { FieldCatalog } from '../query/fields.js';
import type { HtlcLockView, LastBlockSummary, WalletView } from '@lni/state/contracts';
import { timestampOf, type ApiTimestamp } from './timestamp.js';

/** An open HTLC lock in ARK Core 3.0's API shape. */
export interface LockResource {
  readonly lockId: string;
  readonly senderPublicKey: string;
  readonly isExpired: boolean;
  readonly amount: string;
  readonly secretHash: string;
  readonly recipientId: string;
  readonly timestamp: ApiTimestamp;
  readonly expirationType: number;
  readonly expirationValue: number;
  readonly vendorField?: string;
}

const EPOCH_TIMESTAMP = 1;

/**
 * A lock is expired once the last block reached its expiration: its timestamp for type 1
 * (epoch timestamp), its height for type 2 (block height). Then only a refund can close it.
 */
export function isLockExpired(
  lock: HtlcLockView,
  lastBlock: LastBlockSummary | undefined,
): boolean {
  if (lastBlock === undefined) return false;
  const reached = lock.expiration.type === EPOCH_TIMESTAMP ? lastBlock.timestamp : lastBlock.height;
  return lock.expiration.value <= reached;
}

export function lockResource(
  lockId: string,
  lock: HtlcLockView,
  sender: WalletView,
  context: { readonly lastBlock: LastBlockSummary | undefined; readonly epochStart: string },
): LockResource {
  return {
    lockId,
    // A wallet that locked has signed, so its public key is known.
    senderPublicKey: sender.publicKey as string,
    isExpired: isLockExpired(lock, context.lastBlock),
    amount: lock.amount.toString(),
    secretHash: lock.secretHash,
    recipientId: lock.recipientId,
    timestamp: timestampOf(lock.timestamp, context.epochStart),
    expirationType: lock.expiration.type,
    expirationValue: lock.expiration.value,
    ...(lock.vendorField !== undefined && { vendorField: lock.vendorField }),
  };
}

/** Every field of the lock object a client may filter and order on. */
export const lockCatalog: FieldCatalog = {
  lockId: { type: 'string' },
  senderPublicKey: { type: 'string' },
  isExpired: { type: 'boolean' },
  amount: { type: 'amount' },
  secretHash: { type: 'string' },
  recipientId: { type: 'string' },
  'timestamp.epoch': { type: 'integer' },
  'timestamp.unix': { type: 'integer' },
  'timestamp.human': { type: 'string' },
  expirationType: { type: 'integer' },
  expirationValue: { type: 'integer' },
  vendorField: { type: 'string' },
};
