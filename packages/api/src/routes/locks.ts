import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { LedgerReader } from '@lni/state/contracts';
import { pageOf } from '../pagination/envelope.js';
import { searchInMemory } from '../query/in-memory-search.js';
import {
  indexQueryRule,
  toResourceQuery,
  type IndexQueryDefinition,
} from '../query/index-query.js';
import type { WalletView } from '@lni/state/contracts';
import { lockCatalog, lockResource, type LockResource } from '../resources/lock.js';
import { deadlineOf } from '../server/deadline.js';
import { walletIdParams, walletOrNotFound } from './wallet-id.js';

export const lockIndex: IndexQueryDefinition = {
  cursor: true,
  catalog: lockCatalog,
  // ARK 3.0 lists the newest locks first.
  defaultOrder: [{ field: 'timestamp.epoch', direction: 'desc' }],
};

const lockIdParams = Joi.object({
  id: Joi.string().hex().length(64).required().description('id of the lock transaction'),
});

/** The open locks of wallets, shaped, in no particular order. */
function locksOf(wallets: readonly WalletView[], ledger: LedgerReader): LockResource[] {
  const context = {
    lastBlock: ledger.lastBlock(),
    epochStart: ledger.chainContext().epochStart,
  };
  return wallets.flatMap((wallet) =>
    Object.entries(wallet.attributes.htlc?.locks ?? {}).map(([lockId, lock]) =>
      lockResource(lockId, lock, wallet, context),
    ),
  );
}

/** Every wallet holding an open lock, found through the index of locked balances. */
async function lockingWallets(
  ledger: LedgerReader,
  deadline: number,
): Promise<readonly WalletView[]> {
  const search = {
    conditions: [{ kind: 'range' as const, field: 'attributes.htlc.lockedBalance', from: 1n }],
    orderBy: [],
    offset: 0,
  };
  const { totalCount } = await ledger.wallets({ ...search, limit: 0 }, deadline);
  return (await ledger.wallets({ ...search, limit: totalCount }, deadline)).results;
}

/**
 * GET /api/locks, /api/locks/{id} and /api/wallets/{id}/locks: the open HTLC locks, which
 * live in their senders' wallets, filtered and ordered by any field of the lock object.
 */
export function lockRoutes(ledger: () => LedgerReader): ServerRoute[] {
  const index = (
    path: string,
    description: string,
    wallets: (
      reader: LedgerReader,
      id: string,
      deadline: number,
    ) => readonly WalletView[] | Promise<readonly WalletView[]>,
  ): ServerRoute => ({
    method: 'GET',
    path,
    options: {
      description,
      tags: ['api', 'locks'],
      validate: {
        query: indexQueryRule(lockIndex),
        ...(path.includes('{id}') && { params: walletIdParams }),
      },
      handler: async (request) => {
        const reader = ledger();
        const query = toResourceQuery(request.query, lockIndex);
        const holders = await wallets(reader, request.params.id as string, deadlineOf(request));
        const locks = locksOf(holders, reader);
        const page = searchInMemory(locks, query, lockCatalog, 'lockId');
        return pageOf(
          page.results,
          page.totalCount,
          query,
          request.path,
          request.url.searchParams,
          { next: page.next },
        );
      },
    },
  });
  return [
    index(
      '/api/locks',
      'Open HTLC locks, filtered and ordered by any field',
      (reader, _id, deadline) => lockingWallets(reader, deadline),
    ),
    index('/api/wallets/{id}/locks', 'The open HTLC locks a wallet sent', async (reader, id) => [
      await walletOrNotFound(reader, id),
    ]),
    {
      method: 'GET',
      path: '/api/locks/{id}',
      options: {
        description: 'An open HTLC lock by the id of its lock transaction',
        tags: ['api', 'locks'],
        validate: { params: lockIdParams },
        handler: async (request) => {
          const reader = ledger();
          const id = request.params.id as string;
          const owner = (await lockingWallets(reader, deadlineOf(request))).find((wallet) =>
            Object.hasOwn(wallet.attributes.htlc?.locks ?? {}, id),
          );
          const lock = owner && locksOf([owner], reader).find((found) => found.lockId === id);
          if (lock === undefined) throw Boom.notFound(`lock ${id} not found`);
          return { data: lock };
        },
      },
    },
  ];
}
