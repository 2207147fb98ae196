import { InvalidArgumentError, type Command } from 'commander';
import { resolvePaths } from '@lni/kernel';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planLocalNetwork, type LocalNodePlan } from '../local-network/plan.js';
import { prepareLocalNode } from '../local-network/prepare.js';
import { LocalNetworkSupervisor } from '../local-network/supervisor.js';
import { DEFAULT_NETWORK } from '../networks.js';
import type { CommandResult } from '../program.js';

const kernelBin = fileURLToPath(new URL('../../bin/kernel.js', import.meta.url));

interface NetworkStartFlags {
  readonly nodes: number;
  readonly network: string;
  readonly basePort: number;
  readonly data?: string;
}

const integer = (min: number, max: number) => (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
  }
  return value;
};

export function registerNetworkStart(program: Command, result: CommandResult): void {
  program
    .command('network:start')
    .description(
      'start N local nodes wired as peers (one core node forging for every delegate, the others relays) until Ctrl-C',
    )
    .requiredOption('--nodes <n>', 'how many nodes', integer(1, 100))
    .option('--network <name>', 'network the nodes run', DEFAULT_NETWORK)
    .option(
      '--base-port <port>',
      'P2P port of the first node; node i listens on P2P base+10i and API base+10i+3',
      integer(1, 65535),
      4000,
    )
    .option('--data <dir>', "directory holding each node's config and data (default: per user)")
    .action(async (flags: NetworkStartFlags) => {
      result.code = await networkStart(flags);
    });
}

async function networkStart(flags: NetworkStartFlags): Promise<number> {
  const directory = resolve(
    flags.data ?? join(resolvePaths(flags.network, process.env).data, 'local-network'),
  );
  const nodes = planLocalNetwork({ nodes: flags.nodes, basePort: flags.basePort, directory });
  for (const node of nodes) await prepareLocalNode(node, flags.network);

  const supervisor = new LocalNetworkSupervisor({
    bin: kernelBin,
    network: flags.network,
    nodes,
    env: process.env,
    out: process.stdout,
  });
  const stop = (): void => supervisor.stop();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await supervisor.start();
    process.stdout.write(describeNetwork(flags.network, directory, nodes, supervisor.pids()));
    return await supervisor.wait();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function describeNetwork(
  network: string,
  directory: string,
  nodes: readonly LocalNodePlan[],
  pids: readonly { name: string; pid: number | undefined }[],
): string {
  const lines = nodes.map((node, index) =>
    [
      `  ${node.name}`,
      node.mode.padEnd(5),
      `pid ${pids[index]?.pid ?? '?'}`,
      `p2p 127.0.0.1:${node.p2pPort}`,
      `api http://127.0.0.1:${node.apiPort}/api`,
      `config ${node.config}`,
    ].join('  '),
  );
  return [
    `Local ${network} network of ${nodes.length} node(s) under ${directory}:`,
    ...lines,
    'Ctrl-C stops them all.',
    '',
  ].join('\n');
}
