import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { indexQueryRule } from '../query/index-query.js';
import { transactionIndex, transactionPage, type TransactionRouteSources } from './transactions.js';

const CLAIM = 9;
const REFUND = 10;

/**
 * POST /api/locks/unlocked: the claim and refund transactions that closed the locks of the
 * given lock transaction ids, as ARK 3.0 answers it (a page of transactions).
 */
export function unlockedLockRoutes(sources: TransactionRouteSources): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/api/locks/unlocked',
      options: {
        description: 'The claims and refunds that closed these locks (ids of lock transactions)',
        tags: ['api', 'locks'],
        validate: {
          query: indexQueryRule(transactionIndex),
          payload: Joi.object({
            ids: Joi.array()
              .items(Joi.string().hex().length(64))
              .unique()
              .min(1)
              .max(25)
              .required()
              .description('ids of lock transactions'),
          }).required(),
        },
        handler: (request, h) => {
          const { ids } = request.payload as { ids: string[] };
          return transactionPage(sources, request, h, () => [
            { field: 'typeGroup', eq: 1 },
            {
              or: [
                {
                  and: [
                    { field: 'type', eq: CLAIM },
                    { field: 'asset.claim.lockTransactionId', in: ids },
                  ],
                },
                {
                  and: [
                    { field: 'type', eq: REFUND },
                    { field: 'asset.refund.lockTransactionId', in: ids },
                  ],
                },
              ],
            },
          ]);
        },
      },
    },
  ];
}
