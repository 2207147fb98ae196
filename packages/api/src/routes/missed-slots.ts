import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { LedgerReader, MissedSlotReader } from '@lni/state/contracts';
import { pageOf } from '../pagination/envelope.js';
import {
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import { timestampOf } from '../resources/timestamp.js';
import { walletIdParams, walletOrNotFound } from './wallet-id.js';

/** Pages only: the list is newest first, the one order its index serves. */
const missedIndex: IndexQueryDefinition = { catalog: {}, defaultOrder: [] };

export interface MissedSlotRouteSources {
  readonly ledger: () => LedgerReader;
  readonly missedSlots: () => MissedSlotReader;
}

/** GET /api/delegates/{id}/missed: the slots a delegate let pass, newest first. */
export function missedSlotRoutes(sources: MissedSlotRouteSources): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/delegates/{id}/missed',
      options: {
        description:
          'The slots a delegate let pass without a block (round, slot, time), newest first',
        tags: ['api', 'delegates'],
        validate: { params: walletIdParams, query: indexQueryRule(missedIndex) },
        handler: async (request) => {
          const reader = sources.ledger();
          const wallet = await walletOrNotFound(reader, request.params.id as string);
          if (wallet.attributes.delegate === undefined || wallet.publicKey === undefined) {
            throw Boom.notFound(`${request.params.id as string} is not a delegate`);
          }
          const query = toResourceQuery(request.query, missedIndex);
          const { slots, totalCount } = await sources
            .missedSlots()
            .byDelegate(wallet.publicKey, { offset: query.offset, limit: query.limit });
          const { epochStart } = reader.chainContext();
          return pageOf(
            slots.map((missed) => ({
              round: missed.round,
              slot: missed.slot,
              height: missed.height,
              timestamp: timestampOf(missed.timestamp, epochStart),
            })),
            totalCount,
            query,
            request.path,
            request.url.searchParams,
          );
        },
      },
    },
  ];
}
