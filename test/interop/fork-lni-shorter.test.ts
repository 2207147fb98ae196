import { addressFromPassphrase, loadNetworkConfig } from '@lni/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import type { InteropNode } from './support/interop-node.js';
import { LinkCut } from './support/link-cut.js';
import { lniApp } from './support/lni-app.js';
import { interopSkipReason } from './support/skip.js';
import { signedTransfer } from './support/transfers.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// A fork between ARK Core 3.9.1 and LNI, LNI on the shorter branch. An ARK core node forges for
// 34 of ARK testnet's 51 delegates, an LNI core node for the other 17, on one chain. The link
// between them is cut until each has forged blocks of its own branch (a transfer posted to LNI
// meanwhile lands in one of LNI's); when it comes back, ARK's branch is the longer one, and LNI
// rolls back to the block in common and follows it: without a restart, and after a restart
// during the fork. Its wallets then equal ARK's, and the transfer is back in its pool (or forged
// again on the common chain).

const skipReason = await interopSkipReason();
const title = 'a fork with ARK Core 3.9.1 in which LNI holds the shorter branch';

/** Blocks each side forges on its own branch while the link is cut. */
const OWN_BLOCKS = 3;
/** How long LNI may take to follow ARK once the link is back: a few of its sync wake-ups. */
const FOLLOW_TIMEOUT_MS = 90_000;

interface Tip {
  readonly height: number;
  readonly id: string;
}

interface WalletView {
  readonly balance: string;
  readonly nonce: string;
}

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const ARK = '10.77.0.2';
    const LNI = '10.77.0.3';
    const run = useInteropNetwork();
    let ark: InteropNode;
    let lni: InteropNode;
    let secrets: string[];
    let pubKeyHash: number;

    beforeAll(async () => {
      secrets = await run.network.delegateSecrets();
      pubKeyHash = loadNetworkConfig(run.network.ark.testnetCrypto).network.pubKeyHash;
      const lniShare = Math.floor(secrets.length / 3);
      ark = await run.network.startArkNode({
        name: 'ark',
        ip: ARK,
        mode: 'core',
        delegateSecrets: secrets.slice(lniShare),
        peers: [LNI],
        networkStart: true,
        // Forges while cut off from LNI: its branch must grow during the cut.
        forgeWithoutQuorum: true,
      });
      await ark.api.reach(3, 120_000);
      lni = await run.network.startLniNode({
        name: 'lni',
        ip: LNI,
        mode: 'core',
        delegateSecrets: secrets.slice(0, lniShare),
        peers: [ARK],
        // Forges while cut off from ARK, its only peer: its branch must grow during the cut.
        // Its redial backoff (10 s doubling, up to 60 s by default) is capped at 20 s: after
        // the cut the default may wait up to a minute more before dialling ARK again, which
        // measures the backoff, not the fork's resolution.
        app: lniApp({
          forger: { allowSingleNode: true },
          p2p: { redial: { minSeconds: 10, maxSeconds: 20 } },
        }),
      });
      await eventually(
        async () => {
          const peers = (await lni.api.get('/peers')).data as { ip: string }[];
          return peers.some((peer) => peer.ip === ARK) ? true : undefined;
        },
        120_000,
        'ARK in the peers of LNI',
      );
      await sameChain(20 * 8_000);
    });

    const tip = async (node: InteropNode): Promise<Tip> => {
      const { height, id } = (await node.api.get('/blocks/last')).data as Tip;
      return { height, id };
    };

    const blockAt = async (node: InteropNode, height: number): Promise<string | undefined> =>
      ((await node.api.get(`/blocks/${height}`).catch(() => undefined)) as { data?: Tip })?.data
        ?.id;

    /** Resolves with ARK's tip once LNI holds ARK's block at ARK's height. */
    const sameChain = (timeoutMs: number): Promise<Tip> =>
      eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const theirs = await tip(ark);
          return (await blockAt(lni, theirs.height)) === theirs.id ? theirs : undefined;
        },
        timeoutMs,
        "LNI on ARK's chain",
      );

    /** Every wallet a node's API lists (ARK testnet's are a few dozen), by address. */
    const allWallets = async (node: InteropNode): Promise<Map<string, WalletView>> => {
      const wallets = new Map<string, WalletView>();
      for (let page = 1; ; page++) {
        const { data } = (await node.api.get(`/wallets?limit=100&page=${page}`)) as {
          data: (WalletView & { address: string })[];
        };
        for (const { address, balance, nonce } of data) wallets.set(address, { balance, nonce });
        if (data.length < 100) return wallets;
      }
    };

    /** The wallets seen by both APIs at one moment when both stand on the same last block. */
    const walletsOnBoth = (): Promise<{
      at: Tip;
      onArk: Map<string, WalletView>;
      onLni: Map<string, WalletView>;
    }> =>
      eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          const before = [await tip(ark), await tip(lni)] as const;
          if (before[0].id !== before[1].id) return undefined;
          const [onArk, onLni] = await Promise.all([allWallets(ark), allWallets(lni)]);
          const after = [await tip(ark), await tip(lni)] as const;
          // A block applied meanwhile on either side: read again.
          if (after[0].id !== before[0].id || after[1].id !== before[0].id) return undefined;
          return { at: before[0], onArk, onLni };
        },
        60_000,
        'both nodes on the same last block while their wallets are read',
      );

    /**
     * Cuts LNI off, posts a transfer to it, and waits until each side forged `OWN_BLOCKS` of its
     * own branch, ARK's the longer, with the transfer in one of LNI's blocks. `whileCut` runs
     * before the link comes back (a restart during the fork). Resolves when the link is back.
     */
    const forkWithTransfer = async (
      label: string,
      whileCut: () => Promise<void> = async () => undefined,
    ): Promise<{ txId: string; sender: string; recipient: string; restoredAt: number }> => {
      const cutAt = (await sameChain(30_000)).height;
      const cut = await LinkCut.start(lni);
      let restoredAt: number;
      let transfer: { txId: string; sender: string; recipient: string };
      try {
        const { tx, json, senderAddress, recipient } = await signedTransfer(
          run.network.ark.testnetCrypto,
          lni,
          secrets[secrets.length - 1] as string,
          `fork recipient ${label}`,
          4321,
        );
        const answer = await lni.api.post('/transactions', { transactions: [json] });
        const txId = tx.id as string;
        expect(answer.data.accept).toEqual([txId]);
        transfer = { txId, sender: senderAddress, recipient };
        const branches = await eventually(
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 2_000));
            const [onArk, onLni] = [await tip(ark), await tip(lni)];
            const forged = (await lni.api.get(`/transactions/${txId}`).catch(() => undefined))?.data
              ?.blockId;
            return forged !== undefined &&
              onLni.height - cutAt >= OWN_BLOCKS &&
              onArk.height - cutAt >= OWN_BLOCKS &&
              // Two blocks longer at least: LNI must ask ARK whether it holds LNI's last block
              // (one ahead, ARK's last block's previous id tells).
              onArk.height >= onLni.height + 2
              ? { ark: onArk.height, lni: onLni.height }
              : undefined;
          },
          // 17 of 51 delegates forge a third of the slots: OWN_BLOCKS take ~9 slots of 8 s.
          300_000,
          `${OWN_BLOCKS} blocks on each branch, the transfer in one of LNI's`,
        );
        console.log(
          `fork ${label}: cut at ${cutAt}; ARK's branch to ${branches.ark}, LNI's to ${branches.lni}`,
        );
        // LNI's branch really is another chain: ARK does not hold LNI's block.
        expect(await blockAt(ark, branches.lni)).not.toBe(await blockAt(lni, branches.lni));
        await whileCut();
      } finally {
        await cut.restore();
        restoredAt = Date.now();
      }
      return { ...transfer, restoredAt };
    };

    /** LNI's wallets equal ARK's; the transfer is in LNI's pool or forged on the common chain. */
    const expectHealed = async (transfer: { txId: string; sender: string; recipient: string }) => {
      const delegates = secrets.map((secret) => addressFromPassphrase(secret, pubKeyHash));
      const addresses = [...delegates, transfer.recipient];
      const { at, onArk, onLni } = await walletsOnBoth();
      for (const address of addresses) {
        expect(onArk.get(address), `wallet ${address} on ARK`).toBeDefined();
        expect(onLni.get(address), `wallet ${address} at ${at.height}`).toEqual(onArk.get(address));
      }
      const where = await eventually(
        async () => {
          const pooled = await lni.api
            .get(`/transactions/unconfirmed/${transfer.txId}`)
            .catch(() => undefined);
          if (pooled?.data?.id === transfer.txId) return 'in the pool of LNI';
          const onArk = (await ark.api.get(`/transactions/${transfer.txId}`).catch(() => undefined))
            ?.data?.blockId as string | undefined;
          const onLni = (await lni.api.get(`/transactions/${transfer.txId}`).catch(() => undefined))
            ?.data?.blockId as string | undefined;
          return onArk !== undefined && onArk === onLni ? `forged in ${onArk}` : undefined;
        },
        30_000,
        'the transfer in the pool of LNI or forged on the common chain',
      );
      console.log(`the transfer ${transfer.txId} of LNI's dropped block: ${where}`);
      expect(where).toMatch(/in the pool of LNI|forged in /);
    };

    it('LNI, cut off on the shorter branch, rolls back and follows ARK once the link is back', async () => {
      const started = lni;
      const transfer = await forkWithTransfer('a');
      const followed = await sameChain(FOLLOW_TIMEOUT_MS);
      const seconds = ((Date.now() - transfer.restoredAt) / 1000).toFixed(1);
      console.log(
        `fork a: LNI on ARK's chain at ${followed.height} ${seconds} s after the link came back`,
      );
      expect(lni).toBe(started);
      expect(lni.running()).toBe(true);
      expect(await lni.log()).toMatch(/Blocks reverted/);
      await expectHealed(transfer);
      // And it stays on it: ARK's next block reaches LNI too.
      await ark.api.reach(followed.height + 2, 60_000);
      expect((await sameChain(30_000)).height).toBeGreaterThanOrEqual(followed.height + 2);
    }, 600_000);

    it('LNI stopped during the fork and started again loads its branch and follows ARK', async () => {
      const reverts = async () => (await lni.log()).match(/Blocks reverted/g)?.length ?? 0;
      const revertedBefore = await reverts();
      const transfer = await forkWithTransfer('b', async () => {
        await lni.stop();
      });
      lni = await run.network.restart(lni);
      const followed = await sameChain(FOLLOW_TIMEOUT_MS);
      const seconds = ((Date.now() - transfer.restoredAt) / 1000).toFixed(1);
      console.log(
        `fork b: LNI restarted on its branch, on ARK's chain at ${followed.height} ${seconds} s after the link came back`,
      );
      // It started on its own branch and rolled it back (the same output file across the restart).
      expect(await reverts()).toBeGreaterThan(revertedBefore);
      await expectHealed(transfer);
    }, 600_000);
  },
);
