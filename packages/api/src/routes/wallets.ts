import type { ServerRoute } from '@hapi/hapi';
import type { LedgerReader } from '@lni/state/contracts';
import { pageOf } from '../pagination/envelope.js';
import {
  ADDRESSES_REMOVED,
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import { dataJson, JSON_TYPE, pageJson, type JsonBytesMemo } from '../resources/json-bytes.js';
import type { WalletView } from '@lni/state/contracts';
import { walletCatalog, walletResource } from '../resources/wallet.js';
import { deadlineOf } from '../server/deadline.js';
import { walletIdParams, walletOrNotFound } from './wallet-id.js';

const REMOVED_IN_3 = 'was removed in 3.0: filter on the full attribute path instead';

export const walletIndex: IndexQueryDefinition = {
  cursor: true,
  catalog: walletCatalog,
  defaultOrder: [{ field: 'balance', direction: 'desc' }],
  refused: {
    addresses: ADDRESSES_REMOVED,
    isDelegate:
      'does not exist in 3.0: use attributes.delegate.username or attributes.delegate.resigned',
    username: REMOVED_IN_3,
    vote: REMOVED_IN_3,
  },
};

/**
 * GET /api/wallets, /api/wallets/top and /api/wallets/{id}, answered from the wallet indexes,
 * each wallet's JSON kept in `walletJson` between its changes.
 */
export function walletRoutes(
  ledger: () => LedgerReader,
  walletJson: JsonBytesMemo<WalletView>,
): ServerRoute[] {
  const json = (wallet: WalletView) => walletJson.json(wallet, walletResource);
  const index = (path: string, description: string, order?: 'balance'): ServerRoute => ({
    method: 'GET',
    path,
    options: {
      description,
      tags: ['api', 'wallets'],
      validate: { query: indexQueryRule(walletIndex) },
      handler: async (request, h) => {
        const query = toResourceQuery(request.query, walletIndex);
        const search = order
          ? { ...query, orderBy: [{ field: 'balance', direction: 'desc' as const }] }
          : query;
        const page = await ledger().wallets(search, deadlineOf(request));
        const answer = pageOf(
          page.results.map(json),
          page.totalCount,
          query,
          path,
          request.url.searchParams,
          { totalCountIsEstimate: page.totalCountIsEstimate === true, next: page.next },
        );
        return h.response(pageJson(answer)).type(JSON_TYPE);
      },
    },
  });
  return [
    index('/api/wallets', 'Wallets, filtered by any field of the wallet object'),
    index('/api/wallets/top', 'Wallets by balance, richest first', 'balance'),
    {
      method: 'GET',
      path: '/api/wallets/{id}',
      options: {
        description: 'A wallet by address, public key or delegate username',
        tags: ['api', 'wallets'],
        validate: { params: walletIdParams },
        handler: async (request, h) => {
          const wallet = await walletOrNotFound(ledger(), request.params.id as string);
          return h.response(dataJson(json(wallet))).type(JSON_TYPE);
        },
      },
    },
  ];
}
