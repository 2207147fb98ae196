import { command, commandSync, ip } from './command.js';
import { isLeftover, PREFIX, type RunName } from './owner.js';

/** Every node address lies in this /24; nothing else is routable from a node's namespace. */
export const SUBNET_PREFIX = '10.77.0.';

/** Fails unless `address` is a host address of 10.77.0.0/24. */
export function checkNodeAddress(address: string): string {
  const match = /^10\.77\.0\.(\d{1,3})$/.exec(address);
  const host = match ? Number(match[1]) : NaN;
  if (!(host >= 1 && host <= 254)) {
    throw new Error(`node address ${address} is not a host address of 10.77.0.0/24`);
  }
  return address;
}

/**
 * The namespaces of one run. A hub namespace holds a bridge; each node namespace holds
 * loopback and `eth0`, one end of a veth pair whose other end sits on the hub's bridge. The
 * host's own namespace gets no interface, address or route, so nodes reach each other and
 * their own loopback and nothing else, and runs going on at the same time never meet.
 */
export class NetworkNamespaces {
  private readonly names: string[] = [];

  private constructor(private readonly run: RunName) {}

  get hub(): string {
    return `${this.run.id}-hub`;
  }

  static async create(run: RunName): Promise<NetworkNamespaces> {
    const set = new NetworkNamespaces(run);
    await set.add(set.hub);
    await ip('-n', set.hub, 'link', 'add', 'br0', 'type', 'bridge');
    await ip('-n', set.hub, 'link', 'set', 'br0', 'up');
    return set;
  }

  /** A namespace for node `node` with `address`/24 on its `eth0`, wired to the hub. */
  async addNode(node: string, address: string): Promise<string> {
    checkNodeAddress(address);
    const name = `${this.run.id}-${node}`;
    const port = `v${address.split('.')[3]}`;
    await this.add(name);
    await ip(
      '-n',
      name,
      'link',
      'add',
      'eth0',
      'type',
      'veth',
      'peer',
      'name',
      port,
      'netns',
      this.hub,
    );
    await ip('-n', this.hub, 'link', 'set', port, 'master', 'br0');
    await ip('-n', this.hub, 'link', 'set', port, 'up');
    await ip('-n', name, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    await ip('-n', name, 'link', 'set', 'eth0', 'up');
    return name;
  }

  /** Kills whatever still runs inside and deletes every namespace (veths and bridge go too). */
  async remove(): Promise<void> {
    const errors: unknown[] = [];
    for (const name of this.names.splice(0).reverse()) {
      await removeNamespace(name).catch((error: unknown) => errors.push(error));
    }
    if (errors.length > 0) throw new AggregateError(errors, 'removing namespaces failed');
  }

  /** For exit handlers: the same, synchronously, ignoring failures. */
  removeSync(): void {
    for (const name of this.names.splice(0).reverse()) {
      try {
        killAllIn(commandSync('ip', ['netns', 'pids', name]));
        commandSync('ip', ['netns', 'del', name]);
      } catch {
        // The next run's sweep removes whatever an exiting process could not.
      }
    }
  }

  private async add(name: string): Promise<void> {
    await ip('netns', 'add', name);
    this.names.push(name);
    await ip('-n', name, 'link', 'set', 'lo', 'up');
  }
}

/** Names of this harness's namespaces whose run is gone (killed, or crashed before cleanup). */
export async function leftoverNamespaces(): Promise<string[]> {
  return (await listNamespaces()).filter((name) => isLeftover(name));
}

/** Every namespace of this harness, of any run (for checks after a run). */
export async function harnessNamespaces(): Promise<string[]> {
  return (await listNamespaces()).filter((name) => name.startsWith(`${PREFIX}-`));
}

/** Removes the namespaces of runs that are gone; returns their names. */
export async function sweepLeftoverNamespaces(): Promise<string[]> {
  const leftovers = await leftoverNamespaces();
  for (const name of leftovers) await removeNamespace(name);
  return leftovers;
}

async function listNamespaces(): Promise<string[]> {
  const out = await command('ip', ['netns', 'list']);
  return out
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name !== '');
}

async function removeNamespace(name: string): Promise<void> {
  killAllIn(await command('ip', ['netns', 'pids', name]));
  await ip('netns', 'del', name);
}

function killAllIn(pids: string): void {
  for (const pid of pids.split('\n').filter((line) => line.trim() !== '')) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}
