import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import type { InteropNode } from './support/interop-node.js';
import { interopSkipReason } from './support/skip.js';
import { signedTransfer } from './support/transfers.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// An LNI relay joins a network of ARK Core 3.9.1: it syncs the chain an ARK core node forges,
// follows it block by block, is verified and listed by ARK as a peer, and a transfer posted to
// its API travels to ARK in ARK's P2P dialect and is forged there.

const skipReason = await interopSkipReason();
const title = 'an LNI relay on a network of ARK Core 3.9.1';

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const ARK = '10.77.0.2';
    const LNI = '10.77.0.3';
    const run = useInteropNetwork();
    let ark: InteropNode;
    let lni: InteropNode;
    let secrets: string[];

    beforeAll(async () => {
      secrets = await run.network.delegateSecrets();
      ark = await run.network.startArkNode({
        name: 'ark',
        ip: ARK,
        mode: 'core',
        delegateSecrets: secrets,
        peers: [LNI],
        networkStart: true,
        forgeWithoutQuorum: true,
      });
      await ark.api.reach(3, 120_000);
    });

    const blockAt = async (node: InteropNode, height: number): Promise<string> =>
      (await node.api.get(`/blocks/${height}`)).data.id as string;

    it("syncs the chain ARK forged, with ARK's block ids", async () => {
      const height = await ark.api.height();
      lni = await run.network.startLniNode({ name: 'lni', ip: LNI, mode: 'relay', peers: [ARK] });
      await lni.api.reach(height, 120_000);
      for (const at of [2, Math.ceil(height / 2), height]) {
        expect(await blockAt(lni, at), `block ${at}`).toBe(await blockAt(ark, at));
      }
    });

    it('follows ARK: the same block at heights ARK forged after the relay joined', async () => {
      const target = (await ark.api.height()) + 3;
      await ark.api.reach(target, 60_000);
      await lni.api.reach(target, 60_000);
      for (let at = target - 2; at <= target; at++) {
        expect(await blockAt(lni, at), `block ${at}`).toBe(await blockAt(ark, at));
      }
    });

    it("is verified and listed by ARK as a peer, with its API's port; it lists ARK too", async () => {
      const arkPeers = await eventually(
        async () => {
          // ARK's API limits requests per minute: poll it gently.
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          const peers = (await ark.api.get('/peers')).data as {
            ip: string;
            version: string;
            plugins?: Record<string, { port: number }>;
          }[];
          const entry = peers.find((peer) => peer.ip === LNI);
          // What LNI announced in its status; ARK checks the port itself only now and then.
          return entry?.plugins?.['@arkecosystem/core-api']?.port === 4003 ? entry : undefined;
        },
        180_000,
        'LNI in the peers of ARK, with its API port',
      );
      expect(arkPeers.version).toBe('3.9.1');
      const lniPeers = (await lni.api.get('/peers')).data as {
        ip: string;
        ports: Record<string, number>;
      }[];
      expect(lniPeers).toEqual([
        expect.objectContaining({
          ip: ARK,
          ports: expect.objectContaining({ '@arkecosystem/core-api': 4003 }),
        }),
      ]);
    });

    it('passes a transfer posted to its API on to ARK, which forges it', async () => {
      const { tx, json, senderAddress, recipient } = await signedTransfer(
        run.network.ark.testnetCrypto,
        lni,
        secrets[0] as string,
        'interop recipient',
        4321,
      );
      // The same nonce on both: ARK counts the genesis block's version-1 transactions too.
      const [onLni, onArk] = await Promise.all(
        [lni, ark].map(async (node) => (await node.api.get(`/wallets/${senderAddress}`)).data),
      );
      expect(onLni.nonce).toBe(onArk.nonce);
      const answer = await lni.api.post('/transactions', { transactions: [json] });
      expect(answer.data.accept).toEqual([tx.id]);

      const forged = await eventually(
        async () => {
          const found = await ark.api.get(`/transactions/${tx.id}`).catch(() => undefined);
          return found?.data?.blockId ? found.data : undefined;
        },
        120_000,
        'the transfer forged by ARK',
      );
      expect(forged).toMatchObject({ id: tx.id, amount: '4321', recipient });
      // And the LNI relay applied ARK's block: the recipient's balance is there too.
      await eventually(
        async () =>
          (await lni.api.get(`/wallets/${recipient}`).catch(() => undefined))?.data?.balance ===
          '4321'
            ? true
            : undefined,
        60_000,
        'the recipient credited on LNI',
      );
    });

    it("holds the same wallets as ARK: balances, nonces, votes and delegates' figures", async () => {
      /** Every wallet of a node's API, as the fields both implementations show. */
      const wallets = async (node: InteropNode) => {
        const all = new Map<string, unknown>();
        for (let page = 1; ; page++) {
          const answer = await node.api.get(`/wallets?limit=100&page=${page}`);
          for (const wallet of answer.data as ComparableWallet[]) {
            const delegate = wallet.attributes?.delegate;
            all.set(wallet.address, {
              balance: wallet.balance,
              nonce: wallet.nonce,
              vote: wallet.attributes?.vote,
              delegate: delegate && {
                username: delegate.username,
                voteBalance: delegate.voteBalance,
                producedBlocks: delegate.producedBlocks,
                forgedFees: delegate.forgedFees,
                forgedRewards: delegate.forgedRewards,
              },
            });
          }
          if ((answer.data as unknown[]).length < 100) return all;
          await new Promise((resolve) => setTimeout(resolve, 500)); // ARK's API rate limit
        }
      };
      // Rewards move wallets every block: compare a view both read at one height.
      const same = await eventually(
        async () => {
          const height = await ark.api.height();
          await lni.api.reach(height, 30_000);
          const [onArk, onLni] = [await wallets(ark), await wallets(lni)];
          const still = (await ark.api.height()) === height && (await lni.api.height()) === height;
          return still ? { onArk, onLni } : undefined;
        },
        120_000,
        'both nodes read at one height',
      );
      expect(same.onLni.size).toBeGreaterThan(50);
      expect(Object.fromEntries(same.onLni)).toEqual(Object.fromEntries(same.onArk));
    });
  },
);

interface ComparableWallet {
  readonly address: string;
  readonly balance: string;
  readonly nonce: string;
  readonly attributes?: {
    readonly vote?: string;
    readonly delegate?: {
      readonly username: string;
      readonly voteBalance: string;
      readonly producedBlocks: number;
      readonly forgedFees: string;
      readonly forgedRewards: string;
    };
  };
}
