import Boom from '@hapi/boom';
import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Criteria, Service, TransactionQuery } from '@lni/database';
import Joi from 'joi';
import type { LedgerReader } from '@lni/state/contracts';
import { pageOf } from '../pagination/envelope.js';
import {
  ADDRESSES_REMOVED,
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import { dataJson, JSON_TYPE, pageJson } from '../resources/json-bytes.js';
import { transactionCatalog } from '../resources/transaction.js';
import type { TransactionJson } from './transaction-json.js';
import { addressCriterion, senderCriterion, toSearchQuery } from './transaction-search.js';
import { walletIdParams, walletOrNotFound } from './wallet-id.js';

const ADDRESS_LIST = /^[1-9A-HJ-NP-Za-km-z]{25,35}(,[1-9A-HJ-NP-Za-km-z]{25,35}){0,99}$/;

export const transactionIndex: IndexQueryDefinition = {
  cursor: true,
  catalog: transactionCatalog,
  defaultOrder: [{ field: 'timestamp.epoch', direction: 'desc' }],
  refused: {
    addresses: ADDRESSES_REMOVED,
    senderId: 'was renamed in 3.0: use "sender"',
    recipientId: 'was renamed in 3.0: use "recipient"',
  },
  extra: {
    address: Joi.string()
      .pattern(ADDRESS_LIST)
      .description('transactions sent by, sent to or paying any of these comma-separated addresses')
      .messages({ 'string.pattern.base': '"address" must be up to 100 comma-separated addresses' }),
  },
};

export interface TransactionRouteSources {
  readonly ledger: () => LedgerReader;
  readonly transactions: () => Service<TransactionQuery>;
  /** The JSON of the transactions served, kept between requests. */
  readonly json: TransactionJson;
}

type Scope = (id: string, ledger: LedgerReader) => Criteria[] | Promise<Criteria[]>;

/**
 * The JSON of the page of transactions an index request asks for (its filters, `address`,
 * order and page), within the route's own `scope` criteria.
 */
export async function transactionPage(
  sources: TransactionRouteSources,
  request: Request,
  h: ResponseToolkit,
  scope?: Scope,
): Promise<ResponseObject> {
  const ledger = sources.ledger();
  const query = toResourceQuery(request.query, transactionIndex);
  const address = request.query.address as string | undefined;
  const search = await toSearchQuery(query, {
    ledger,
    ...(scope && { scope: await scope(request.params.id as string, ledger) }),
    ...(address !== undefined && { addresses: address.split(',') }),
  });
  const page = await sources.transactions().search(search);
  const context = ledger.chainContext();
  const json = pageJson(
    pageOf(
      page.results.map((stored) => sources.json.of(stored, context)),
      page.totalCount,
      query,
      request.path,
      request.url.searchParams,
      { totalCountIsEstimate: page.totalCountIsEstimate === true, next: page.next },
    ),
  );
  return h.response(json).type(JSON_TYPE);
}

/** GET /api/transactions, /api/transactions/{id} and the per-wallet transaction lists. */
export function transactionRoutes(sources: TransactionRouteSources): ServerRoute[] {
  const index = (path: string, description: string, scope?: Scope): ServerRoute => ({
    method: 'GET',
    path,
    options: {
      description,
      tags: ['api', 'transactions'],
      validate: {
        query: indexQueryRule(transactionIndex),
        ...(path.includes('{id}') && { params: walletIdParams }),
      },
      handler: (request, h) => transactionPage(sources, request, h, scope),
    },
  });

  const byId = (path: string, description: string, scope: Criteria[]): ServerRoute => ({
    method: 'GET',
    path,
    options: {
      description,
      tags: ['api', 'transactions'],
      validate: { params: Joi.object({ id: Joi.string().hex().length(64).required() }) },
      handler: async (request, h) => {
        const id = request.params.id as string;
        const page = await sources.transactions().search({
          criteria: { and: [{ field: 'id', eq: id }, ...scope] },
          limit: 1,
          offset: 0,
        });
        const stored = page.results[0];
        if (stored === undefined) throw Boom.notFound(`transaction ${id} not found`);
        const json = sources.json.of(stored, sources.ledger().chainContext());
        return h.response(dataJson(json)).type(JSON_TYPE);
      },
    },
  });
  const walletAddress = async (id: string, ledger: LedgerReader) =>
    (await walletOrNotFound(ledger, id)).address;
  return [
    index('/api/transactions', 'Transactions, filtered by any field, address or asset path'),
    index(
      '/api/wallets/{id}/transactions',
      'Transactions sent or received by a wallet',
      async (id, ledger) => [await addressCriterion(await walletAddress(id, ledger), ledger)],
    ),
    index(
      '/api/wallets/{id}/transactions/sent',
      'Transactions a wallet sent',
      async (id, ledger) => [await senderCriterion(await walletAddress(id, ledger), ledger)],
    ),
    index(
      '/api/wallets/{id}/transactions/received',
      'Transactions paying a wallet',
      async (id, ledger) => {
        const address = await walletAddress(id, ledger);
        return [
          {
            or: [
              { field: 'recipientId', eq: address },
              { field: 'asset.payments.recipientId', eq: address },
            ],
          },
        ];
      },
    ),
    index('/api/wallets/{id}/votes', 'Votes a wallet cast', async (id, ledger) => [
      await senderCriterion(await walletAddress(id, ledger), ledger),
      { field: 'typeGroup', eq: 1 },
      { field: 'type', eq: 3 },
    ]),
    index('/api/votes', 'Vote transactions', () => [
      { field: 'typeGroup', eq: 1 },
      { field: 'type', eq: 3 },
    ]),
    byId('/api/transactions/{id}', 'A confirmed transaction by id', []),
    byId('/api/votes/{id}', 'A vote transaction by id', [
      { field: 'typeGroup', eq: 1 },
      { field: 'type', eq: 3 },
    ]),
  ];
}
