import { addressFromPassphrase, loadNetworkConfig, transfer } from '@lni/crypto';
import type { WalletPage, WalletQuery } from '@lni/state';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerNode, TESTNET, type LedgerNode } from '../support/ledger-node.js';
import { postgresSkipReason } from '../support/postgres.js';
import { delegateSecrets } from '../support/delegate-secrets.js';

const { pubKeyHash } = loadNetworkConfig(join(TESTNET, 'crypto')).network;

/** What the node's own (inline) query engine answers, as the state plugin registers it. */
interface Engine {
  wallets(query: WalletQuery): WalletPage;
  delegates(query: WalletQuery): WalletPage;
}

// Every wallet and delegate query answered by the worker thread's copy of the wallets (no
// query is cheap enough to stay inline), checked against the node's own indexes block by block.
describe.skipIf(postgresSkipReason)('wallet queries off the node’s thread', () => {
  let node: LedgerNode;
  let engine: Engine;
  let sender: { passphrase: string; address: string };

  const get = async (path: string) => {
    const response = await fetch(`${node.api}${path}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, body: (await response.json()) as any };
  };

  // Each request beside the same query asked of the node's indexes directly.
  const cases: { path: string; scope: 'wallets' | 'delegates'; query: WalletQuery }[] = [
    {
      path: '/wallets?orderBy=balance:desc&limit=7',
      scope: 'wallets',
      query: { orderBy: [{ field: 'balance', direction: 'desc' }], limit: 7, offset: 0 },
    },
    {
      path: '/wallets?balance.from=1&nonce.to=0&orderBy=balance:asc&limit=5&page=2',
      scope: 'wallets',
      query: {
        conditions: [
          { kind: 'range', field: 'balance', from: 1n },
          { kind: 'range', field: 'nonce', to: 0n },
        ],
        orderBy: [{ field: 'balance', direction: 'asc' }],
        limit: 5,
        offset: 5,
      },
    },
    {
      path: '/delegates?orderBy=votes:desc&limit=10',
      scope: 'delegates',
      query: { orderBy: [{ field: 'votes', direction: 'desc' }], limit: 10, offset: 0 },
    },
  ];

  const expectSameAnswers = async () => {
    for (const { path, scope, query } of cases) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      const expected = scope === 'wallets' ? engine.wallets(query) : engine.delegates(query);
      expect(answer.body.meta.totalCount, path).toBe(expected.totalCount);
      expect(
        answer.body.data.map((item: { address: string }) => item.address),
        path,
      ).toEqual(expected.results.map((wallet) => wallet.address));
    }
  };

  beforeAll(async () => {
    node = await startLedgerNode([], {}, { walletQueries: { inlineVisits: 0 } });
    engine = node.kernel.cradle.walletQueryEngine as unknown as Engine;
    const secrets = await delegateSecrets(TESTNET);
    const passphrase = secrets[0] as string;
    sender = { passphrase, address: addressFromPassphrase(passphrase, pubKeyHash) };
  });
  afterAll(() => node?.stop());

  it('answers as the node’s indexes do, and follows each block', async () => {
    await expectSameAnswers();
    const nonce = BigInt((await get(`/wallets/${sender.address}`)).body.data.nonce as string);
    for (let block = 0; block < 3; block += 1) {
      const transfers = Array.from({ length: 4 }, (_, i) =>
        transfer({ network: pubKeyHash, milestone: node.milestones.at(2) })
          .recipientId(addressFromPassphrase(`off-thread recipient ${block} ${i}`, pubKeyHash))
          .amount(1_000 * (block * 4 + i + 1))
          .nonce(nonce + BigInt(block * 4 + i + 1))
          .sign(sender.passphrase)
          .build(),
      );
      await node.forge(transfers);
      await expectSameAnswers();
    }
    // A balance range finds the last recipient, paid in the last block.
    const newest = addressFromPassphrase('off-thread recipient 2 3', pubKeyHash);
    const found = await get(`/wallets?balance.from=12000&balance.to=12000`);
    expect(found.body.data.map((w: { address: string }) => w.address)).toEqual([newest]);
  });
});
