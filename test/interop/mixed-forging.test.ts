import { keysFromPassphrase } from '@lni/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import type { InteropNode } from './support/interop-node.js';
import { lniApp } from './support/lni-app.js';
import { interopSkipReason } from './support/skip.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// One network, two implementations, every pairing of forger and relay across them: an LNI
// forger holding half of ARK testnet's 51 genesis delegates forges through an ARK Core 3.9.1
// relay, an ARK forger holding the other half forges through an LNI relay, and the two relays
// are each other's peer. For two whole rounds both relays hold the same block at every height.

const skipReason = await interopSkipReason();
const title = 'mixed forging: an LNI forger on an ARK relay, an ARK forger on an LNI relay';

/** Blocks per round on ARK testnet (active delegates). */
const ROUND = 51;

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const ARK = '10.77.0.2';
    const LNI = '10.77.0.3';
    const run = useInteropNetwork();
    let arkRelay: InteropNode;
    let lniRelay: InteropNode;
    let lniHalf: Set<string>;
    let arkHalf: Set<string>;

    beforeAll(async () => {
      const secrets = await run.network.delegateSecrets();
      const half = Math.ceil(secrets.length / 2);
      const publicKeys = (list: string[]) =>
        new Set(list.map((secret) => keysFromPassphrase(secret).publicKey.toString('hex')));
      lniHalf = publicKeys(secrets.slice(0, half));
      arkHalf = publicKeys(secrets.slice(half));
      arkRelay = await run.network.startArkNode({
        name: 'arkrelay',
        ip: ARK,
        mode: 'relay',
        peers: [LNI],
        networkStart: true,
      });
      lniRelay = await run.network.startLniNode({
        name: 'lnirelay',
        ip: LNI,
        mode: 'relay',
        peers: [ARK],
        app: lniApp(),
      });
      await run.network.startLniNode({
        name: 'lniforger',
        mode: 'forger',
        relay: arkRelay,
        delegateSecrets: secrets.slice(0, half),
        app: lniApp(),
      });
      await run.network.startArkNode({
        name: 'arkforger',
        mode: 'forger',
        relay: lniRelay,
        delegateSecrets: secrets.slice(half),
      });
    });

    const blocks = async (
      node: InteropNode,
      from: number,
      to: number,
    ): Promise<Map<number, { id: string; generator: string }>> => {
      const found = new Map<number, { id: string; generator: string }>();
      for (let page = 1; found.size < to - from + 1; page++) {
        // ARK and LNI both take height ranges and orderBy on /blocks.
        const answer = await node.api.get(
          `/blocks?height.from=${from}&height.to=${to}&orderBy=height:asc&limit=100&page=${page}`,
        );
        const data = answer.data as {
          height: number;
          id: string;
          generator: { publicKey: string };
        }[];
        if (data.length === 0) break;
        for (const block of data) {
          found.set(block.height, { id: block.id, generator: block.generator.publicKey });
        }
        await new Promise((resolve) => setTimeout(resolve, 500)); // ARK's API rate limit
      }
      return found;
    };

    it('both forgers forge: blocks of either half reach both relays', async () => {
      const start = await lniRelay.api.height();
      const seen = await eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 4_000));
          const height = await lniRelay.api.height();
          if (height < start + 4) return undefined;
          const recent = [...(await blocks(lniRelay, 2, height)).values()];
          const byLni = recent.filter((block) => lniHalf.has(block.generator)).length;
          const byArk = recent.filter((block) => arkHalf.has(block.generator)).length;
          return byLni > 0 && byArk > 0 ? { byLni, byArk } : undefined;
        },
        600_000,
        'blocks forged by both halves',
      );
      expect(seen.byLni).toBeGreaterThan(0);
      expect(seen.byArk).toBeGreaterThan(0);
    }, 660_000);

    it('for two whole rounds, both relays hold the same block at every height', async () => {
      const now = await lniRelay.api.height();
      // From the start of the next round to the end of the one after it.
      const from = Math.floor((now - 1) / ROUND + 1) * ROUND + 1;
      const to = from + 2 * ROUND - 1;
      const rounds = 2 * ROUND * 8_000;
      await lniRelay.api.reach(to, (to - now) * 8_000 + rounds);
      await arkRelay.api.reach(to, 120_000);
      const [onLni, onArk] = [await blocks(lniRelay, from, to), await blocks(arkRelay, from, to)];
      expect(onLni.size).toBe(2 * ROUND);
      for (let height = from; height <= to; height++) {
        expect(onArk.get(height)?.id, `block ${height}`).toBe(onLni.get(height)?.id);
      }
      const generators = [...onLni.values()].map((block) => block.generator);
      const byLni = generators.filter((key) => lniHalf.has(key)).length;
      const byArk = generators.filter((key) => arkHalf.has(key)).length;
      // Every block of the two rounds by one half or the other, both halves well represented.
      expect(byLni + byArk).toBe(2 * ROUND);
      expect(byLni).toBeGreaterThan(ROUND / 2);
      expect(byArk).toBeGreaterThan(ROUND / 2);
    }, 1_800_000);
  },
);
