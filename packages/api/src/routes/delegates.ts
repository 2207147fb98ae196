import type { ServerRoute } from '@hapi/hapi';
import Boom from '@hapi/boom';
import type { LedgerReader } from '@lni/state/contracts';
import { pageOf } from '../pagination/envelope.js';
import {
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import { delegateCatalog, delegateResource } from '../resources/delegate.js';
import { dataJson, JSON_TYPE, pageJson, type ResourceJson } from '../resources/json-bytes.js';
import type { WalletView } from '@lni/state/contracts';
import { walletResource } from '../resources/wallet.js';
import { delegateSearch } from './delegate-search.js';
import { deadlineOf } from '../server/deadline.js';
import { walletIdParams, walletOrNotFound } from './wallet-id.js';
import { walletIndex } from './wallets.js';

export const delegateIndex: IndexQueryDefinition = {
  cursor: true,
  catalog: delegateCatalog,
  defaultOrder: [{ field: 'rank', direction: 'asc' }],
};

/** GET /api/delegates, /api/delegates/{id} and /api/delegates/{id}/voters. */
export function delegateRoutes(ledger: () => LedgerReader, json: ResourceJson): ServerRoute[] {
  const context = (reader: LedgerReader) => ({
    supply: reader.supply(),
    epochStart: reader.chainContext().epochStart,
  });
  // A delegate's approval moves with the supply: its JSON is kept for one supply.
  const delegateJson = (wallet: WalletView, shape: ReturnType<typeof context>) =>
    json.delegates.json(wallet, (delegate) => delegateResource(delegate, shape), shape.supply);
  const walletJson = (wallet: WalletView) => json.wallets.json(wallet, walletResource);
  return [
    {
      method: 'GET',
      path: '/api/delegates',
      options: {
        description: 'Delegates, filtered and ordered by any field of the delegate object',
        tags: ['api', 'delegates'],
        validate: { query: indexQueryRule(delegateIndex) },
        handler: async (request, h) => {
          const reader = ledger();
          const query = toResourceQuery(request.query, delegateIndex);
          const shape = context(reader);
          const page = await reader.delegates(delegateSearch(query, shape), deadlineOf(request));
          const answer = pageOf(
            page.results.map((wallet) => delegateJson(wallet, shape)),
            page.totalCount,
            query,
            '/api/delegates',
            request.url.searchParams,
            { next: page.next },
          );
          return h.response(pageJson(answer)).type(JSON_TYPE);
        },
      },
    },
    {
      method: 'GET',
      path: '/api/delegates/{id}',
      options: {
        description: 'A delegate by username, address or public key',
        tags: ['api', 'delegates'],
        validate: { params: walletIdParams },
        handler: async (request, h) => {
          const reader = ledger();
          const wallet = await walletOrNotFound(reader, request.params.id as string);
          if (wallet.attributes.delegate === undefined) {
            throw Boom.notFound(`${request.params.id as string} is not a delegate`);
          }
          return h.response(dataJson(delegateJson(wallet, context(reader)))).type(JSON_TYPE);
        },
      },
    },
    {
      method: 'GET',
      path: '/api/delegates/{id}/voters',
      options: {
        description: 'The wallets voting for a delegate, filtered by any wallet field',
        tags: ['api', 'delegates'],
        validate: { params: walletIdParams, query: indexQueryRule(walletIndex) },
        handler: async (request, h) => {
          const reader = ledger();
          const delegate = await walletOrNotFound(reader, request.params.id as string);
          if (delegate.attributes.delegate === undefined || delegate.publicKey === undefined) {
            throw Boom.notFound(`${request.params.id as string} is not a delegate`);
          }
          const query = toResourceQuery(request.query, walletIndex);
          const conditions = [
            ...query.conditions,
            { kind: 'in' as const, field: 'attributes.vote', values: [delegate.publicKey] },
          ];
          const page = await reader.wallets({ ...query, conditions }, deadlineOf(request));
          const answer = pageOf(
            page.results.map(walletJson),
            page.totalCount,
            query,
            request.path,
            request.url.searchParams,
            { next: page.next },
          );
          return h.response(pageJson(answer)).type(JSON_TYPE);
        },
      },
    },
  ];
}
