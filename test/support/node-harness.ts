import { runKernel, type KernelProcess } from '@lni/cli/testing';
import {
  addressFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionToJson,
  transfer,
} from '@lni/crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from './free-port.js';
import { delegateSecrets } from './delegate-secrets.js';

/** One node directory pair and the ports it listens on. */
export interface NodeDirs {
  readonly config: string;
  readonly data: string;
}

/** Starts `kernel start --mode <mode>` on the given directories with env overrides. */
export function startNode(
  mode: 'core' | 'relay' | 'forger',
  dirs: NodeDirs,
  env: NodeJS.ProcessEnv,
): KernelProcess {
  return runKernel(
    ['start', '--mode', mode, '--config', dirs.config, '--data', dirs.data],
    // info keeps the captured output small enough to search; every block is logged at info.
    { CORE_LOG_LEVEL: 'info', ...env },
  );
}

/**
 * Writes `<config>/app.json` for a core node that is the whole network: database, state, p2p,
 * the API (with `apiOptions`) and a forger that forges without peers.
 */
export async function writeSingleNodeApp(
  configDir: string,
  apiOptions: Readonly<Record<string, unknown>> = {},
): Promise<void> {
  const plugin = (name: string, options = {}) => ({ package: `@lni/${name}`, options });
  const plugins = [
    plugin('database'),
    plugin('state'),
    plugin('p2p'),
    plugin('api', apiOptions),
    plugin('forger', { allowSingleNode: true }),
  ];
  await writeFile(join(configDir, 'app.json'), JSON.stringify({ core: { plugins } }));
}

/** SIGTERM and wait, so a failed test never leaves a node running. */
export async function stopNode(node: KernelProcess | undefined): Promise<number | null> {
  if (!node) return null;
  if (node.child.exitCode !== null || node.child.signalCode !== null) {
    return node.child.exitCode;
  }
  node.child.kill('SIGTERM');
  return (await node.exited()).code;
}

function isStaleConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code === 'UND_ERR_SOCKET';
}

/** The public API of one node, as a client sees it. */
export class ApiClient {
  constructor(readonly base: string) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async get(path: string): Promise<any> {
    const response = await fetch(`${this.base}${path}`).catch((error: unknown) => {
      // A kept-alive connection the server closed as it was reused (seen with ARK's API): a GET
      // is safe to send again, once, on a new connection.
      if (!isStaleConnection(error)) throw error;
      return fetch(`${this.base}${path}`);
    });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async post(path: string, body: unknown): Promise<any> {
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  async height(): Promise<number> {
    return (await this.get('/blocks/last')).data.height as number;
  }

  /** Resolves once the chain is at least `target` high and the block at `target` can be read. */
  reach(target: number, timeoutMs: number): Promise<number> {
    return eventually(
      async () => {
        const height = await this.height();
        if (height < target) return undefined;
        // ARK answers /blocks/last from memory but /blocks/:height from its database, which
        // takes a downloaded batch only after applying all of it: until then the block is a 404.
        await this.get(`/blocks/${target}`);
        return height;
      },
      timeoutMs,
      `height ${target} at ${this.base}`,
    );
  }

  /** Every block from genesis, oldest first, as `{ height, id, timestamp }`. */
  async allBlocks(): Promise<{ height: number; id: string; epoch: number }[]> {
    const blocks: { height: number; id: string; epoch: number }[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.get(`/blocks?orderBy=height:asc&limit=100&page=${page}`);
      for (const block of answer.data as {
        height: number;
        id: string;
        timestamp: { epoch: number };
      }[]) {
        blocks.push({ height: block.height, id: block.id, epoch: block.timestamp.epoch });
      }
      if (answer.data.length < 100) return blocks;
    }
  }

  /** Signs a transfer from the first delegate in `configDir` and posts it; resolves with its id. */
  async postTransfer(
    configDir: string,
    recipientPassphrase: string,
    amount: number,
  ): Promise<{ id: string; recipient: string; sender: string }> {
    const network = loadNetworkConfig(join(configDir, 'crypto'));
    const secrets = await delegateSecrets(configDir);
    const passphrase = secrets[0] as string;
    const sender = addressFromPassphrase(passphrase, network.network.pubKeyHash);
    const recipient = addressFromPassphrase(recipientPassphrase, network.network.pubKeyHash);
    const wallet = (await this.get(`/wallets/${sender}`)).data as { nonce: string };
    const milestone = new Milestones(network.milestones).at(await this.height());
    const tx = transfer({ network: network.network.pubKeyHash, milestone })
      .recipientId(recipient)
      .amount(amount)
      .nonce(BigInt(wallet.nonce) + 1n)
      .sign(passphrase)
      .build();
    const response = await fetch(`${this.base}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactions: [transactionToJson(tx)] }),
    });
    const answer = (await response.json()) as { data?: { accept?: string[] } };
    const id = tx.id;
    if (id === undefined || answer.data?.accept?.[0] !== id) {
      throw new Error(`transfer not accepted: ${JSON.stringify(answer)}`);
    }
    return { id, recipient, sender };
  }
}

/** Milliseconds between blocks on the network in `configDir`, from its milestones. */
export function blocktimeMs(configDir: string): number {
  const network = loadNetworkConfig(join(configDir, 'crypto'));
  return new Milestones(network.milestones).at(1).blocktime * 1000;
}

/** Fails unless heights run 1, 2, 3, … with one block each: nothing forged twice, no gap. */
export function contiguousHeights(blocks: readonly { height: number }[]): boolean {
  return blocks.every((block, index) => block.height === index + 1);
}
