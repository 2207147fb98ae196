import type { InteropNode } from './interop-node.js';
import { resetTcp } from './link-cut.js';

/**
 * Splits a network in two, and heals it: on every node of one side, each TCP segment from a
 * node of the other side is answered with a reset, so connections across the split break at
 * once and none can be made, while the nodes of each side keep talking to each other (unlike
 * `LinkCut`, which cuts one node off from all). One side's rules suffice: a segment from this
 * side reaches the other, but its answer is reset here. The rules die with the namespaces.
 */
export class Partition {
  private constructor(private readonly rules: readonly (readonly [InteropNode, string])[]) {}

  static async start(
    side: readonly InteropNode[],
    other: readonly InteropNode[],
  ): Promise<Partition> {
    const rules = side.flatMap((node) => other.map((peer) => [node, peer.ip] as const));
    const applied: (readonly [InteropNode, string])[] = [];
    try {
      for (const [node, from] of rules) {
        await resetTcp(node, '-I', from);
        applied.push([node, from]);
      }
    } catch (error) {
      await new Partition(applied).heal();
      throw error;
    }
    return new Partition(rules);
  }

  async heal(): Promise<void> {
    for (const [node, from] of this.rules) await resetTcp(node, '-D', from);
  }
}
