import { KernelError } from '@lni/kernel';
import { join } from 'node:path';

/** Ports between one node's and the next: P2P at +0, API at +3, as ARK's 4000/4003. */
export const PORT_STRIDE = 10;
const API_OFFSET = 3;

export type LocalNodeMode = 'core' | 'relay';

/** One node of a local network: its directories, ports and the peers it starts from. */
export interface LocalNodePlan {
  readonly name: string;
  readonly mode: LocalNodeMode;
  readonly config: string;
  readonly data: string;
  readonly p2pPort: number;
  readonly apiPort: number;
  readonly peers: readonly { readonly ip: string; readonly port: number }[];
}

export class LocalNetworkPlanError extends KernelError {
  constructor(message: string) {
    super('ERR_LOCAL_NETWORK', message);
  }
}

/**
 * N nodes on loopback: node-0 is a core node forging for every delegate, the others relays;
 * each lists all the others in its peers.json so the network is a full mesh from the start.
 */
export function planLocalNetwork(input: {
  readonly nodes: number;
  readonly basePort: number;
  readonly directory: string;
}): LocalNodePlan[] {
  const { nodes, basePort, directory } = input;
  if (!Number.isInteger(nodes) || nodes < 1) {
    throw new LocalNetworkPlanError(`nodes: expected a whole number of at least 1, got ${nodes}`);
  }
  const highest = basePort + PORT_STRIDE * (nodes - 1) + API_OFFSET;
  if (!Number.isInteger(basePort) || basePort < 1 || highest > 65535) {
    throw new LocalNetworkPlanError(
      `base-port: ${nodes} nodes need ports ${basePort}..${highest}, which must lie within 1..65535`,
    );
  }
  const p2pPort = (index: number) => basePort + PORT_STRIDE * index;
  return Array.from({ length: nodes }, (_, index) => {
    const name = `node-${index}`;
    return {
      name,
      mode: index === 0 ? 'core' : 'relay',
      config: join(directory, name, 'config'),
      data: join(directory, name, 'data'),
      p2pPort: p2pPort(index),
      apiPort: p2pPort(index) + API_OFFSET,
      peers: Array.from({ length: nodes }, (_, other) => other)
        .filter((other) => other !== index)
        .map((other) => ({ ip: '127.0.0.1', port: p2pPort(other) })),
    };
  });
}
