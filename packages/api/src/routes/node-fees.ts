import type { ServerRoute } from '@hapi/hapi';
import type { Service, TransactionQuery } from '@lni/database';
import Joi from 'joi';
import type { LedgerReader } from '@lni/state/contracts';
import { feeKeyOf } from './transaction-types.js';

const DAY_MS = 86_400_000;

export interface NodeFeeSources {
  readonly ledger: () => LedgerReader;
  readonly transactions: () => Service<TransactionQuery>;
  /** The current time; a value so that tests can fix it. */
  readonly now: () => Date;
}

/**
 * GET /api/node/fees: what confirmed transactions of each type paid over the last `days`,
 * in ARK 3.0's shape
 * `{ meta: { days }, data: { [typeGroup]: { [type]: { avg, median, min, max, sum } } } }`.
 */
export function nodeFeeRoutes(sources: NodeFeeSources): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/node/fees',
      options: {
        description:
          'Average, lowest, highest and total fees per transaction type over recent days',
        tags: ['api', 'node'],
        validate: {
          query: Joi.object({
            days: Joi.number().integer().min(1).max(30).default(7),
          }),
        },
        handler: async (request) => {
          const days = request.query.days as number;
          const epochMs = new Date(sources.ledger().chainContext().epochStart).getTime();
          const since = Math.floor((sources.now().getTime() - days * DAY_MS - epochMs) / 1000);
          const statistics = await sources.transactions().feeStatistics(since);
          const data: Record<string, Record<string, Record<string, string>>> = {};
          for (const { typeGroup, type, avg, median, min, max, sum } of statistics) {
            const group = (data[typeGroup] ??= {});
            group[feeKeyOf(typeGroup, type)] = {
              avg: String(avg),
              median: String(median),
              min: String(min),
              max: String(max),
              sum: String(sum),
            };
          }
          return { meta: { days }, data };
        },
      },
    },
  ];
}
