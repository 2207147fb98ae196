import type { PoolRejection } from '@lni/state/contracts';

/** An entry of `errors` in the answer to POST /api/transactions, as ARK Core 3.x shapes it. */
export interface ArkPoolError {
  readonly type: string;
  readonly message: string;
}

/** The pool's own reasons, by the ARK 3.x type a client switches on. */
const POOL_REASONS: Readonly<Record<string, string>> = {
  malformed: 'ERR_BAD_DATA',
  invalid: 'ERR_BAD_DATA',
  signature: 'ERR_BAD_DATA',
  duplicate: 'ERR_DUPLICATE',
  expired: 'ERR_EXPIRED',
  'sender.full': 'ERR_EXCEEDS_MAX_COUNT',
  'request.tooMany': 'ERR_EXCEEDS_MAX_COUNT',
  'pool.full': 'ERR_POOL_FULL',
  storage: 'ERR_RETRY',
  // ARK refuses a fee other than the static one as too low to enter the pool.
  ERR_TX_FEE: 'ERR_LOW_FEE',
};

/**
 * ARK 3.x's type and message shape for a refusal of the pool: ledger rules (nonce, balance,
 * vote, …) are ERR_APPLY as in ARK, where the sender's state refuses them; anything this node
 * refuses for a reason ARK does not have is ERR_OTHER.
 */
export function arkPoolError(
  refusal: Pick<PoolRejection, 'reason' | 'message'>,
  id: string,
): ArkPoolError {
  const { reason, message } = refusal;
  const type = POOL_REASONS[reason] ?? (reason.startsWith('ERR_TX_') ? 'ERR_APPLY' : 'ERR_OTHER');
  return { type, message: messageFor(type, reason, id, message) };
}

/** ARK's message shapes, with this node's detail where ARK gives one. */
function messageFor(type: string, reason: string, id: string, detail: string): string {
  const transaction = `Transaction ${id}`;
  switch (type) {
    case 'ERR_BAD_DATA':
      return reason === 'signature'
        ? `${transaction} didn't passed verification`
        : `Invalid transaction data: ${detail}`;
    case 'ERR_DUPLICATE':
      return `${transaction} is already in pool`;
    case 'ERR_EXPIRED':
      return `${transaction} expired: ${detail}`;
    case 'ERR_LOW_FEE':
      return `${transaction} fee is to low to enter the pool: ${detail}`;
    case 'ERR_APPLY':
      return `${transaction} cannot be applied: ${detail}`;
    case 'ERR_RETRY':
      return `${transaction} cannot be added to pool, please retry`;
    default:
      return `${transaction}: ${detail}`;
  }
}
