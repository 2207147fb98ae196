import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import type { InteropNode } from './support/interop-node.js';
import { LinkCut } from './support/link-cut.js';
import { lniApp } from './support/lni-app.js';
import { interopSkipReason } from './support/skip.js';
import { signedTransfer } from './support/transfers.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// The reverse direction: an LNI core node forges ARK testnet's chain, and an ARK Core 3.9.1
// relay syncs it, follows it block by block, and passes a transfer posted to its API on to LNI,
// which forges it.

const skipReason = await interopSkipReason();
// LNI_INTEROP_CATCH_UP=off runs LNI without sending a lagging peer what it missed, to measure
// what the catch-up saves (the missed-block scenario then only waits for ARK's own sync).
const catchUp = process.env.LNI_INTEROP_CATCH_UP !== 'off';
const BLOCK_TIME_MS = 8_000; // ARK testnet's
const title = 'an ARK Core 3.9.1 relay on a chain LNI forges';

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const LNI = '10.77.0.2';
    const ARK = '10.77.0.3';
    const run = useInteropNetwork();
    let lni: InteropNode;
    let ark: InteropNode;
    let secrets: string[];

    beforeAll(async () => {
      secrets = await run.network.delegateSecrets();
      lni = await run.network.startLniNode({
        name: 'lni',
        ip: LNI,
        mode: 'core',
        delegateSecrets: secrets,
        peers: [ARK],
        // Alone until the ARK relay joins: a development network's forger may forge so.
        app: lniApp({
          forger: { allowSingleNode: true },
          p2p: catchUp ? {} : { broadcast: { catchUpMaxBlocks: 0 } },
        }),
      });
      await lni.api.reach(4, 120_000);
    });

    const blockAt = async (node: InteropNode, height: number): Promise<string> =>
      (await node.api.get(`/blocks/${height}`)).data.id as string;

    it('ARK syncs the blocks LNI forged: every one verifies and applies on ARK', async () => {
      const height = await lni.api.height();
      ark = await run.network.startArkNode({ name: 'ark', ip: ARK, mode: 'relay', peers: [LNI] });
      await ark.api.reach(height, 180_000);
      for (const at of [2, Math.ceil(height / 2), height]) {
        expect(await blockAt(ark, at), `block ${at}`).toBe(await blockAt(lni, at));
      }
    });

    it('ARK follows LNI: the same block at heights LNI forged after ARK joined', async () => {
      // A block LNI forges after ARK's sync ended but before LNI has ARK as a peer reaches ARK
      // only by ARK's own sync, which wakes every 60 s: ARK answers a posted block that does not
      // chain to its last one with false and drops it. So following is measured from when ARK
      // is level with LNI and listed as its peer.
      const level = await eventually(
        async () => {
          const peers = (await lni.api.get('/peers')).data as { ip: string }[];
          if (!peers.some((peer) => peer.ip === ARK)) return undefined;
          const height = await lni.api.height();
          return (await ark.api.height()) >= height ? height : undefined;
        },
        90_000,
        'ARK level with LNI and listed as its peer',
      );
      const target = level + 3;
      await lni.api.reach(target, 60_000);
      // Within 30 s, so by LNI's broadcast: ARK's own sync would wait for its 60 s wake-up.
      await ark.api.reach(target, 30_000);
      for (let at = target - 2; at <= target; at++) {
        expect(await blockAt(ark, at), `block ${at}`).toBe(await blockAt(lni, at));
      }
    });

    it('ARK cut off while LNI forges a block is sent it and is level soon after', async () => {
      const levelHeight = async (): Promise<number | undefined> => {
        const height = await lni.api.height();
        return (await ark.api.height()) >= height ? height : undefined;
      };
      const before = await eventually(levelHeight, 30_000, 'ARK level with LNI');
      // Cut ARK off just after a block, until LNI has forged the next one: that block is lost
      // to ARK (its connections broke), and ARK answers LNI's next one with false.
      const cut = await LinkCut.start(ark);
      try {
        await lni.api.reach(before + 1, 2 * BLOCK_TIME_MS);
      } finally {
        await cut.restore();
      }
      const restoredAt = Date.now();
      const missed = await lni.api.height();
      const forgedAt = new Map<number, number>(); // height → when LNI's API first showed it
      const level = await eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const height = await lni.api.height();
          if (!forgedAt.has(height)) forgedAt.set(height, Date.now());
          return height > missed && (await ark.api.height()) >= height ? height : undefined;
        },
        catchUp ? 45_000 : 120_000,
        'ARK level with LNI after the cut',
      );
      const levelAt = Date.now();
      const sinceBlock = levelAt - (forgedAt.get(level) ?? levelAt);
      console.log(
        `missed-block catch-up ${catchUp ? 'on' : 'off'}: block ${missed} missed by ARK; ` +
          `ARK level at ${level} ${((levelAt - restoredAt) / 1000).toFixed(1)} s after the ` +
          `link came back, ${(sinceBlock / 1000).toFixed(1)} s after LNI showed block ${level}`,
      );
      for (const at of [missed, level]) {
        expect(await blockAt(ark, at), `block ${at}`).toBe(await blockAt(lni, at));
      }
      if (catchUp) {
        // LNI posted the missed block: ARK received it, it did not download it.
        expect(await ark.log()).toMatch(new RegExp(`Received new block at height ${missed} `));
        expect(sinceBlock).toBeLessThanOrEqual(BLOCK_TIME_MS);
      }
    });

    it('each lists the other as a peer', async () => {
      await eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 2_000)); // ARK's API rate limit
          const peers = (await ark.api.get('/peers')).data as { ip: string }[];
          return peers.some((peer) => peer.ip === LNI) ? true : undefined;
        },
        180_000,
        'LNI in the peers of ARK',
      );
      const lniPeers = (await lni.api.get('/peers')).data as { ip: string; version: string }[];
      expect(lniPeers).toEqual([expect.objectContaining({ ip: ARK, version: '3.9.1' })]);
    });

    it('a transfer posted to the ARK relay reaches LNI, which forges it', async () => {
      const { tx, json, recipient } = await signedTransfer(
        run.network.ark.testnetCrypto,
        ark,
        secrets[1] as string,
        'interop recipient of ARK',
        1234,
      );
      const answer = await ark.api.post('/transactions', { transactions: [json] });
      expect(answer.data.accept).toEqual([tx.id]);
      const forged = await eventually(
        async () => {
          const found = await lni.api.get(`/transactions/${tx.id}`).catch(() => undefined);
          return found?.data?.blockId ? found.data : undefined;
        },
        120_000,
        'the transfer forged by LNI',
      );
      expect(forged).toMatchObject({ id: tx.id, amount: '1234', recipient });
      await eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          return (await ark.api.get(`/wallets/${recipient}`).catch(() => undefined))?.data
            ?.balance === '1234'
            ? true
            : undefined;
        },
        120_000,
        'the recipient credited on ARK',
      );
    });
  },
);
