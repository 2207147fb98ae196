import { command } from './command.js';
import type { InteropNode } from './interop-node.js';

/**
 * Cuts a node off its peers, and lets it back: every TCP segment reaching its `eth0` is answered
 * with a reset, so its connections to and from other nodes break at once and none can be made,
 * as when a link goes down for long enough to lose them. (Dropping packets instead would only
 * delay them: TCP sends them again once the link is back, and nothing would be missed.) Its own
 * loopback, where the test reaches its API, is untouched. The rule dies with the namespace.
 */
export class LinkCut {
  private constructor(private readonly node: InteropNode) {}

  static async start(node: InteropNode): Promise<LinkCut> {
    await resetTcp(node, '-I');
    return new LinkCut(node);
  }

  async restore(): Promise<void> {
    await resetTcp(this.node, '-D');
  }
}

/**
 * Adds (`-I`) or removes (`-D`) the rule that answers TCP reaching the node's `eth0` with a
 * reset: from every address, or from `source` only (a `Partition`).
 */
export function resetTcp(node: InteropNode, action: '-I' | '-D', source?: string): Promise<string> {
  return command('ip', [
    'netns',
    'exec',
    node.namespace,
    'iptables',
    action,
    'INPUT',
    '-i',
    'eth0',
    ...(source === undefined ? [] : ['-s', source]),
    '-p',
    'tcp',
    '-j',
    'REJECT',
    '--reject-with',
    'tcp-reset',
  ]);
}
