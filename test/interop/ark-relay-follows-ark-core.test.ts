import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/free-port.js';
import type { InteropNode } from './support/interop-node.js';
import { interopSkipReason } from './support/skip.js';
import { useInteropNetwork } from './support/use-interop-network.js';

// The harness proven with ARK alone: two real ARK Core 3.9.1 processes, each in its own
// network namespace, peering over 10.77.0.0/24 the way they would on the internet.

const skipReason = await interopSkipReason();
const title = "an ARK relay syncs and follows an ARK core node's chain";

describe.skipIf(skipReason !== undefined)(
  skipReason ? `${title} (skipped: ${skipReason})` : title,
  () => {
    const A = '10.77.0.2';
    const B = '10.77.0.3';
    const run = useInteropNetwork();
    let a: InteropNode;
    let b: InteropNode;

    beforeAll(async () => {
      a = await run.network.startArkNode({
        name: 'a',
        ip: A,
        mode: 'core',
        delegateSecrets: await run.network.delegateSecrets(),
        peers: [B],
        networkStart: true,
        forgeWithoutQuorum: true,
      });
    });

    const blockAt = async (node: InteropNode, height: number): Promise<string> =>
      (await node.api.get(`/blocks/${height}`)).data.id as string;

    it('core node A forges alone for the 51 testnet delegates', async () => {
      expect(await a.api.reach(3, 120_000)).toBeGreaterThanOrEqual(3);
      const delegates = await a.api.get('/delegates?limit=100');
      expect(delegates.meta.totalCount).toBe(51);
    });

    it("relay B, with A as its seed, syncs A's chain", async () => {
      const height = await a.api.height();
      b = await run.network.startArkNode({ name: 'b', ip: B, mode: 'relay', peers: [A] });
      await b.api.reach(height, 120_000);
      expect(await blockAt(b, height)).toBe(await blockAt(a, height));
    });

    it('B follows A: the same block at a height A forged after B joined', async () => {
      const target = (await a.api.height()) + 2;
      await a.api.reach(target, 60_000);
      // A stalled relay re-syncs on its next wake-up, at most 60 s later.
      await b.api.reach(target, 120_000);
      expect(await blockAt(b, target)).toBe(await blockAt(a, target));
    });

    it("each lists the other in its API's peers", async () => {
      const peerIps = async (node: InteropNode): Promise<string[]> =>
        ((await node.api.get('/peers')).data as { ip: string }[]).map((peer) => peer.ip);
      await eventually(
        async () => ((await peerIps(a)).includes(B) ? true : undefined),
        120_000,
        'B in the peers of A',
      );
      await eventually(
        async () => ((await peerIps(b)).includes(A) ? true : undefined),
        120_000,
        'A in the peers of B',
      );
    });
  },
);
