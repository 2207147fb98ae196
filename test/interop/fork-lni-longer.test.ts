import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import type { InteropNode } from './support/interop-node.js';
import { lniApp } from './support/lni-app.js';
import { Partition } from './support/partition.js';
import { interopSkipReason } from './support/skip.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// A fork that LNI wins: an LNI core node forging for 34 of ARK testnet's 51 delegates and an
// ARK Core 3.9.1 core node forging for the other 17 are split apart until each side forged at
// least three blocks, then joined again. ARK must end up on LNI's longer branch.
//
// ARK gives up a branch only through its network-health check (README, "How ARK leaves a
// fork"): it rolls back when the verified peers forked from it at one height outnumber those
// sharing a higher block with it, ARK itself counted. So the longer side holds three LNI nodes
// (the core node and two relays), and the shorter side an LNI relay beside ARK, without which
// ARK, a normal node without `--env=test`, would have no quorum to forge alone.

const skipReason = await interopSkipReason();
// LNI_INTEROP_LONGER=ark runs the same split with ARK Core in every place an LNI node holds
// (the node named 'lni' is then ARK too): the figure to compare with. Not for CI.
const longerKind = process.env.LNI_INTEROP_LONGER === 'ark' ? 'ark' : 'lni';
const title =
  longerKind === 'ark'
    ? 'the same fork with ARK nodes only: ARK Core 3.9.1 leaves its shorter branch'
    : "a fork LNI wins: ARK Core 3.9.1 leaves its shorter branch for LNI's longer one";

const BLOCK_TIME_MS = 8_000; // ARK testnet's
/** ARK's wake-up while idle (core-blockchain `setWakeUp`, `fastSync` off). */
const ARK_WAKE_UP_MS = 60_000;
/**
 * From the link's return to ARK on LNI's branch: ARK re-admits LNI's nodes when they next post
 * it a block and stops forging (they are above it: no quorum); a block time or three later its
 * tip is no longer recent; each 60 s wake-up then tries to download, finds nothing that chains
 * and ends 'network halted'; the fourth calls the health check, which rolls back and syncs.
 * One wake-up more, and two block times, for the re-admission and the download.
 */
const LEAVE_FORK_MS = 5 * ARK_WAKE_UP_MS + 2 * BLOCK_TIME_MS + 30_000;

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const LNI = '10.77.0.2';
    const ARK = '10.77.0.3';
    const RELAY_WITH_ARK = '10.77.0.4';
    const RELAYS_WITH_LNI = ['10.77.0.5', '10.77.0.6'];
    const everyone = [LNI, ARK, RELAY_WITH_ARK, ...RELAYS_WITH_LNI];
    const others = (ip: string) => everyone.filter((other) => other !== ip);
    const run = useInteropNetwork();
    let lni: InteropNode;
    let ark: InteropNode;
    let relayWithArk: InteropNode;
    let relaysWithLni: InteropNode[];

    beforeAll(async () => {
      const secrets = await run.network.delegateSecrets();
      const relay = (name: string, ip: string) =>
        longerKind === 'ark'
          ? run.network.startArkNode({ name, ip, mode: 'relay', peers: others(ip) })
          : run.network.startLniNode({ name, ip, mode: 'relay', peers: others(ip), app: lniApp() });
      if (longerKind === 'ark') {
        // The first node of the network; it forges once a relay is its peer.
        lni = await run.network.startArkNode({
          name: 'lni',
          ip: LNI,
          mode: 'core',
          delegateSecrets: secrets.slice(0, 34),
          peers: others(LNI),
          networkStart: true,
        });
      } else {
        lni = await run.network.startLniNode({
          name: 'lni',
          ip: LNI,
          mode: 'core',
          delegateSecrets: secrets.slice(0, 34),
          peers: others(LNI),
          // Alone until the others join; ARK, a normal node, forges only with peers.
          app: lniApp({ forger: { allowSingleNode: true } }),
        });
        await lni.api.reach(3, 120_000);
      }
      relaysWithLni = [];
      for (const [index, ip] of RELAYS_WITH_LNI.entries()) {
        relaysWithLni.push(await relay(`rel${index + 2}`, ip));
      }
      relayWithArk = await relay('rel1', RELAY_WITH_ARK);
      await lni.api.reach(3, 240_000);
      ark = await run.network.startArkNode({
        name: 'ark',
        ip: ARK,
        mode: 'core',
        delegateSecrets: secrets.slice(34),
        peers: others(ARK),
      });
    }, 900_000);

    const blockAt = async (node: InteropNode, height: number): Promise<string | undefined> =>
      (await node.api.get(`/blocks/${height}`).catch(() => undefined))?.data?.id as
        string | undefined;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it("ARK forges on LNI's chain with its 17 delegates", async () => {
      await ark.waitForLog(/Forged new block/, 240_000);
      const height = await eventually(
        async () => {
          await pause(2_000); // ARK's API rate limit
          const ours = await lni.api.height();
          return (await ark.api.height()) >= ours ? ours : undefined;
        },
        120_000,
        'ARK level with LNI',
      );
      expect(await blockAt(ark, height)).toBe(await blockAt(lni, height));
    }, 420_000);

    it("split until each side forged 3 blocks, ARK then adopts LNI's longer branch", async () => {
      const split = await Partition.start([ark, relayWithArk], [lni, ...relaysWithLni]);
      const splitAt = Date.now();
      let heights: { ark: number; lni: number };
      try {
        const [arkFrom, lniFrom] = [await ark.api.height(), await lni.api.height()];
        heights = await eventually(
          async () => {
            await pause(2_000);
            const [arkNow, lniNow] = [await ark.api.height(), await lni.api.height()];
            // LNI's branch the longer one when the link returns, as the scenario says.
            return arkNow >= arkFrom + 3 && lniNow >= lniFrom + 3 && lniNow > arkNow
              ? { ark: arkNow, lni: lniNow }
              : undefined;
          },
          // ARK holds a third of the slots: three of them within a round and a half.
          76 * BLOCK_TIME_MS,
          "three blocks forged on each side of the split, more on LNI's",
        );
      } finally {
        await split.heal();
      }
      const healedAt = Date.now();
      // Two branches: at ARK's height the two hold different blocks.
      expect(await blockAt(ark, heights.ark)).not.toBe(await blockAt(lni, heights.ark));
      const onLniBranch = await eventually(
        async () => {
          await pause(4_000);
          const [arkNow, lniNow] = [await ark.api.height(), await lni.api.height()];
          const at = Math.min(arkNow, lniNow);
          if (at <= heights.lni) return undefined;
          const [ours, theirs] = [await blockAt(ark, at), await blockAt(lni, at)];
          return ours !== undefined && ours === theirs ? at : undefined;
        },
        LEAVE_FORK_MS,
        "ARK's block at LNI's height the same as LNI's",
      );
      const tookMs = Date.now() - healedAt;
      console.log(
        `fork with ${longerKind === 'ark' ? 'ARK' : 'LNI'} longer: split ${((healedAt - splitAt) / 1000).toFixed(0)} s (ARK at ` +
          `${heights.ark}, LNI at ${heights.lni}); ARK on LNI's branch at ${onLniBranch} ` +
          `${(tookMs / 1000).toFixed(1)} s after the link came back`,
      );
      // Through its health check's rollback, as ARK's sources say.
      expect(await ark.log()).toMatch(/Rolling back \d+ blocks? to fork at height/);
      expect(await blockAt(ark, heights.lni)).toBe(await blockAt(lni, heights.lni));
      // And it stays there: level with LNI's tip within a few block times (ordinary sync).
      const tip = await lni.api.height();
      await ark.api.reach(tip, 4 * BLOCK_TIME_MS);
      expect(await blockAt(ark, tip)).toBe(await blockAt(lni, tip));
    }, 900_000);
  },
);
