import { transactionFromJson, transactionId, type TransactionData } from '@lni/crypto';
import { arkPoolError, type ArkPoolError } from '../ledger/ark-pool-error.js';
import type { Pool } from '@lni/state/contracts';

export interface SubmissionSources {
  readonly pool: () => Pick<Pool, 'add' | 'get' | 'all'>;
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
    const read = readTransaction(json, index, network);
    // The first copy of a transaction is the one judged and listed.
    if (listed.has(read.id)) return;
    listed.add(read.id);
    if ('error' in read) {
      refuse(read.id, read.error);
      return;
    }
    parsed.push(read.data);
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

type ReadTransaction =
  | { readonly id: string; readonly data: TransactionData }
  | { readonly id: string; readonly error: ArkPoolError };

/** One submitted transaction as data with its id, or why it is not one of this network. */
function readTransaction(
  json: Record<string, unknown>,
  index: number,
  network: number,
): ReadTransaction {
  const claimedId = typeof json.id === 'string' ? json.id : `transactions[${index}]`;
  if (json.network !== undefined && json.network !== network) {
    const message = `Transaction network '${String(json.network)}' does not match '${network}'`;
    return { id: claimedId, error: { type: 'ERR_WRONG_NETWORK', message } };
  }
  try {
    const data = transactionFromJson(json, { network });
    const id = data.id ?? transactionId(data);
    return { id, data: { ...data, id } };
  } catch (error) {
    const refusal = { reason: 'malformed', message: (error as Error).message };
    return { id: claimedId, error: arkPoolError(refusal, claimedId) };
  }
}
