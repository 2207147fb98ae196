import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { BlockHeader } from '@lni/crypto';
import type { BlockQuery, Service } from '@lni/database';
import Joi from 'joi';
import type { LedgerReader } from '@lni/state/contracts';
import { pageOf } from '../pagination/envelope.js';
import {
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import { blockCatalog, blockResource } from '../resources/block.js';
import { toSearchQuery } from './transaction-search.js';
import { transactionIndex, transactionPage, type TransactionRouteSources } from './transactions.js';
import { walletIdParams, walletOrNotFound } from './wallet-id.js';

export const blockIndex: IndexQueryDefinition = {
  cursor: true,
  catalog: blockCatalog,
  defaultOrder: [{ field: 'height', direction: 'desc' }],
};

export interface BlockRouteSources extends TransactionRouteSources {
  readonly blocks: () => Service<BlockQuery>;
}

const blockIdParams = Joi.object({
  id: Joi.alternatives()
    .try(
      Joi.number()
        .integer()
        .min(1)
        .max(2 ** 32 - 1),
      Joi.string().pattern(/^([0-9]{1,20}|[0-9a-f]{64})$/),
    )
    .required()
    .description('block id or height'),
});

/** GET /api/blocks and friends, and /api/delegates/{id}/blocks. */
export function blockRoutes(sources: BlockRouteSources): ServerRoute[] {
  const findBlock = async (id: string | number): Promise<BlockHeader> => {
    // A short id is also a number: look for the id first, then the height.
    const text = String(id);
    const byId = await sources
      .blocks()
      .search({ criteria: { field: 'id', eq: text }, limit: 1, offset: 0 });
    let block = byId.results[0];
    if (block === undefined && /^[0-9]{1,10}$/.test(text) && Number(text) <= 2 ** 32 - 1) {
      const byHeight = await sources.blocks().search({
        criteria: { field: 'height', eq: Number(text) },
        limit: 1,
        offset: 0,
      });
      block = byHeight.results[0];
    }
    if (block === undefined) throw Boom.notFound(`block ${text} not found`);
    return block;
  };
  const one = (
    path: string,
    description: string,
    find: (request: { params: Record<string, unknown> }) => Promise<BlockHeader>,
  ): ServerRoute => ({
    method: 'GET',
    path,
    options: {
      description,
      tags: ['api', 'blocks'],
      ...(path.includes('{id}') && { validate: { params: blockIdParams } }),
      handler: async (request) => ({
        data: blockResource(await find(request), sources.ledger().chainContext()),
      }),
    },
  });
  const edge = (direction: 'asc' | 'desc') => async () => {
    const page = await sources
      .blocks()
      .search({ orderBy: [{ field: 'height', direction }], limit: 1, offset: 0 });
    const block = page.results[0];
    if (block === undefined) throw Boom.notFound('the chain has no blocks yet');
    return block;
  };
  const index = (path: string, description: string, generator?: true): ServerRoute => ({
    method: 'GET',
    path,
    options: {
      description,
      tags: ['api', 'blocks'],
      validate: {
        query: indexQueryRule(blockIndex),
        ...(generator && { params: walletIdParams }),
      },
      handler: async (request) => {
        const ledger = sources.ledger();
        const query = toResourceQuery(request.query, blockIndex);
        const scope = generator
          ? [
              {
                field: 'generatorPublicKey',
                eq: await delegateKey(ledger, request.params.id as string),
              },
            ]
          : [];
        const page = await sources.blocks().search(await toSearchQuery(query, { ledger, scope }));
        const context = ledger.chainContext();
        return pageOf(
          page.results.map((block) => blockResource(block, context)),
          page.totalCount,
          query,
          request.path,
          request.url.searchParams,
          { totalCountIsEstimate: page.totalCountIsEstimate === true, next: page.next },
        );
      },
    },
  });
  return [
    index('/api/blocks', 'Blocks, filtered and ordered by any field'),
    index('/api/delegates/{id}/blocks', 'Blocks a delegate forged', true),
    one('/api/blocks/first', 'The genesis block', edge('asc')),
    one('/api/blocks/last', 'The last block', edge('desc')),
    one('/api/blocks/{id}', 'A block by id or height', (request) =>
      findBlock(request.params.id as string | number),
    ),
    {
      method: 'GET',
      path: '/api/blocks/{id}/transactions',
      options: {
        description: 'The transactions of a block, filtered by any transaction field',
        tags: ['api', 'blocks'],
        validate: { params: blockIdParams, query: indexQueryRule(transactionIndex) },
        handler: async (request, h) => {
          const block = await findBlock(request.params.id as string | number);
          return transactionPage(sources, request, h, () => [{ field: 'blockId', eq: block.id }]);
        },
      },
    },
  ];
}

async function delegateKey(ledger: LedgerReader, id: string): Promise<string> {
  const wallet = await walletOrNotFound(ledger, id);
  if (wallet.attributes.delegate === undefined || wallet.publicKey === undefined) {
    throw Boom.notFound(`${id} is not a delegate`);
  }
  return wallet.publicKey;
}
