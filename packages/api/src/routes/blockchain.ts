import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { LedgerReader } from '@lni/state/contracts';

/** GET /api/blockchain: the last block and the supply, in ARK 3.0's shape. */
export function blockchainRoutes(ledger: () => LedgerReader): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/blockchain',
      options: {
        description: 'The height and id of the last block, and all coins in existence',
        tags: ['api', 'blockchain'],
        handler: () => {
          const reader = ledger();
          const last = reader.lastBlock();
          if (last === undefined) throw Boom.notFound('the chain has no blocks yet');
          return {
            data: {
              block: { height: last.height, id: last.id },
              supply: reader.supply().toString(),
            },
          };
        },
      },
    },
  ];
}
