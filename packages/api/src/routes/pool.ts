import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { TransactionData } from '@lni/crypto';
import Joi from 'joi';
import type { LedgerReader } from '@lni/state/contracts';
import type { Pool } from '@lni/state/contracts';
import { unconfirmedResource } from '../resources/unconfirmed-transaction.js';
import { submitTransactions } from './transaction-submission.js';

export const MAX_TRANSACTIONS_PER_REQUEST = 40;

export interface PoolRouteSources {
  readonly ledger: () => LedgerReader;
  readonly pool: () => Pick<Pool, 'add' | 'get' | 'all'>;
  readonly pubKeyHash: () => number;
}

function unconfirmed(transaction: TransactionData, ledger: LedgerReader) {
  return unconfirmedResource(transaction, ledger.chainContext().addressOf);
}

/** POST /api/transactions and the unconfirmed transactions of the pool. */
export function poolRoutes(sources: PoolRouteSources): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/api/transactions',
      options: {
        description:
          'Submits signed transactions to the pool; each refusal gives its ARK 3.x error type',
        tags: ['api', 'transactions'],
        validate: {
          payload: Joi.object({
            transactions: Joi.array()
              .items(Joi.object().unknown(true))
              .min(1)
              .max(MAX_TRANSACTIONS_PER_REQUEST)
              .required(),
          }),
        },
        handler: async (request, h) => {
          const { transactions } = request.payload as { transactions: Record<string, unknown>[] };
          const answer = await submitTransactions(transactions, sources);
          const response = h.response(answer.body).code(answer.status);
          // The node's own fault (storage): the client may send the same again shortly.
          return answer.status === 503 ? response.header('Retry-After', '1') : response;
        },
      },
    },
    {
      method: 'GET',
      path: '/api/transactions/unconfirmed',
      options: {
        description: 'Transactions waiting in the pool, best first',
        tags: ['api', 'transactions'],
        validate: {
          query: Joi.object({
            page: Joi.number().integer().min(1).default(1),
            limit: Joi.number().integer().min(1).max(100).default(100),
          }),
        },
        handler: (request) => {
          const { page, limit } = request.query as { page: number; limit: number };
          const all = sources.pool().all();
          const ledger = sources.ledger();
          const data = all
            .slice((page - 1) * limit, page * limit)
            .map((transaction) => unconfirmed(transaction, ledger));
          return {
            meta: {
              count: data.length,
              pageCount: Math.max(1, Math.ceil(all.length / limit)),
              totalCount: all.length,
            },
            data,
          };
        },
      },
    },
    {
      method: 'GET',
      path: '/api/transactions/unconfirmed/{id}',
      options: {
        description: 'A transaction waiting in the pool',
        tags: ['api', 'transactions'],
        validate: { params: Joi.object({ id: Joi.string().hex().length(64).required() }) },
        handler: (request) => {
          const transaction = sources.pool().get(request.params.id as string);
          if (transaction === undefined) {
            throw Boom.notFound(`transaction ${request.params.id as string} is not in the pool`);
          }
          return { data: unconfirmed(transaction, sources.ledger()) };
        },
      },
    },
  ];
}
