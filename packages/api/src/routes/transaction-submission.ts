import { transactionFromJson, transactionId, type TransactionData } from '@lni/crypto';
import { arkPoolError, type ArkPoolError } from '../ledger/ark-pool-error.js';
import type { PoolPort } from '../ledger/pool-port.js';

export interface SubmissionSources {
  readonly pool: () => PoolPort;
  readonly pubKeyHash: () => number;
}

/** The answer to POST /api/transactions, in ARK 3.x's shape. */
export interface SubmissionAnswer {
  readonly status: 200 | 422 | 503;
  readonly body: {
    readonly data: {
      readonly accept: readonly string[];
      readonly broadcast: readonly string[];
      readonly excess: readonly string[];
      readonly invalid: readonly string[];
    };
    readonly errors?: Record<string, ArkPoolError>;
  };
}

/** Refusals that put a transaction under `excess` as well as `invalid`, as ARK does. */
const EXCESS_TYPE = 'ERR_EXCEEDS_MAX_COUNT';

/**
 * Parses the submitted transactions, offers them to the pool and answers each by its id. A
 * transaction sent twice in one request is judged and listed once, by its first copy (ARK
 * would list it both as accepted and as a duplicate). A refusal that is the node's fault
 * (storage) answers 503, so the client retries instead of dropping the transaction.
 */
export async function submitTransactions(
  transactions: readonly Record<string, unknown>[],
  sources: SubmissionSources,
): Promise<SubmissionAnswer> {
  const network = sources.pubKeyHash();
  const parsed: TransactionData[] = [];
  const positions: number[] = [];
  const listed = new Set<string>();
  const invalid: string[] = [];
  const excess: string[] = [];
  // Keyed by ids the client chose: a Map, so that an id such as __proto__ stays a key.
  const errors = new Map<string, ArkPoolError>();
  const refuse = (id: string, error: ArkPoolError) => {
    invalid.push(id);
    if (error.type === EXCESS_TYPE) excess.push(id);
    errors.set(id, error);
  };

  transactions.forEach((json, index) => {
    const claimedId = typeof json.id === 'string' ? json.id : `transactions[${index}]`;
    let data: TransactionData;
    try {
      if (json.network !== undefined && json.network !== network) {
        if (listed.has(claimedId)) return;
        listed.add(claimedId);
        refuse(claimedId, {
          type: 'ERR_WRONG_NETWORK',
          message: `Transaction network '${String(json.network)}' does not match '${network}'`,
        });
        return;
      }
      const read = transactionFromJson(json, { network });
      data = { ...read, id: read.id ?? transactionId(read) };
    } catch (error) {
      if (listed.has(claimedId)) return;
      listed.add(claimedId);
      refuse(
        claimedId,
        arkPoolError({ reason: 'malformed', message: (error as Error).message }, claimedId),
      );
      return;
    }
    const id = data.id as string;
    if (listed.has(id)) return;
    listed.add(id);
    parsed.push(data);
    positions.push(index);
  });

  const result = await sources.pool().add(parsed);
  let storageFailed = false;
  for (const refusal of result.rejected) {
    const id =
      refusal.id ?? parsed[refusal.index]?.id ?? `transactions[${positions[refusal.index]}]`;
    if (refusal.reason === 'storage') storageFailed = true;
    refuse(id, arkPoolError(refusal, id));
  }
  const status = result.accepted.length > 0 ? 200 : storageFailed ? 503 : 422;
  return {
    status,
    body: {
      data: { accept: result.accepted, broadcast: result.accepted, excess, invalid },
      ...(errors.size > 0 && { errors: Object.fromEntries(errors) }),
    },
  };
}
