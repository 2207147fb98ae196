import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { completeInstallation, type ArkInstallation } from './ark-install.js';
import {
  arkArguments,
  arkEnvironment,
  arkOptionsProblem,
  arkTestnetDelegateSecrets,
  writeArkConfig,
  type ArkNodeOptions,
} from './ark-node.js';
import { createDatabase, databaseName, dropDatabase } from './databases.js';
import { InteropNode, type NodeMode } from './interop-node.js';
import { lniArguments, lniEnvironment, writeLniConfig, type LniNodeOptions } from './lni-node.js';
import { checkNodeAddress, NetworkNamespaces, SUBNET_PREFIX } from './namespaces.js';
import { NamespacedProcess } from './namespaced-process.js';
import { newRunName, type RunName } from './owner.js';
import { PortForward } from './port-forward.js';
import { sweepLeftovers } from './sweep.js';
import { formatWarnings, groupWarnings } from './warning-summary.js';

/** Per-run directories with every node's config, data and output (gitignored). */
export const ARTIFACTS_ROOT = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** Older run directories beyond this many are deleted when a run starts. */
const KEPT_RUNS = 10;
const API_TIMEOUT_MS = 240_000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface LaunchSpec {
  readonly kind: 'ark' | 'lni';
  readonly name: string;
  readonly mode: NodeMode;
  readonly ip?: string | undefined;
  readonly relay?: InteropNode | undefined;
  /** Needs a database of its own on the host's PostgreSQL. */
  readonly database: boolean;
  /** Writes the config and returns the command line, given the node's directory and database. */
  readonly prepare: (
    dir: string,
    database: string | undefined,
  ) => Promise<{ args: string[]; env: Record<string, string> }>;
  /** API path that answers 200 once the node is up. */
  readonly readyPath: string;
  /** What a forger (no API) prints once it is up. */
  readonly startedLine: RegExp;
}

interface Launch {
  readonly spec: LaunchSpec;
  readonly dir: string;
  readonly namespace: string;
  readonly ip: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

/**
 * One test network: ARK and LNI nodes, each in its own network namespace on 10.77.0.0/24, all
 * on the same P2P and API ports. `dispose()` stops every node and removes every namespace,
 * database and socket; a signal or an exit of the test process does the same, and whatever a
 * killed run leaves is swept by the next one.
 */
export class InteropNetwork {
  private readonly nodes: InteropNode[] = [];
  private readonly databases: string[] = [];
  private readonly addresses = new Set<string>();
  /** How each node was started, to start it again on the same files and database. */
  private readonly launches = new Map<InteropNode, Launch>();
  private disposed: Promise<void> | undefined;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    void this.dispose()
      .catch((error: unknown) => console.error(error))
      .finally(() => process.kill(process.pid, signal));
  };
  private readonly onExit = (): void => this.disposeSync();

  private constructor(
    readonly run: RunName,
    readonly ark: ArkInstallation,
    private readonly namespaces: NetworkNamespaces,
    /** This run's directory under `ARTIFACTS_ROOT`. */
    readonly artifacts: string,
    /** A directory in /tmp for what needs a short path (Unix sockets, data directories). */
    private readonly shortPaths: string,
  ) {
    for (const signal of SIGNALS) process.once(signal, this.onSignal);
    process.once('exit', this.onExit);
  }

  static async create(): Promise<InteropNetwork> {
    const ark = await completeInstallation();
    if (!ark) throw new Error('ARK Core is not installed: run `npm run interop:install`');
    await sweepLeftovers();
    const run = newRunName();
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const artifacts = join(ARTIFACTS_ROOT, `${stamp}-${run.id}`);
    await mkdir(artifacts, { recursive: true });
    await pruneOldRuns();
    // Unix socket paths are limited to 108 bytes, so they live in a short temporary path: the
    // port forwards' sockets, and LNI's data directories, which hold each node's admin socket
    // (under the artifacts of a clone in a longer path than /work/main it would not fit there,
    // and LNI would move it to the shared $TMPDIR/lni-admin-<uid>/).
    const shortPaths = join(tmpdir(), run.id);
    await mkdir(shortPaths);
    const namespaces = await NetworkNamespaces.create(run);
    return new InteropNetwork(run, ark, namespaces, artifacts, shortPaths);
  }

  /** ARK testnet's 51 genesis delegate secrets. */
  delegateSecrets(): Promise<string[]> {
    return arkTestnetDelegateSecrets(this.ark);
  }

  /** Starts ARK Core 3.9.1 (`ark <mode>:run` on ARK's testnet files); resolves once its API answers. */
  startArkNode(options: ArkNodeOptions): Promise<InteropNode> {
    const problem = arkOptionsProblem(options);
    if (problem) return Promise.reject(new Error(`ARK node ${options.name}: ${problem}`));
    return this.launch({
      kind: 'ark',
      name: options.name,
      mode: options.mode,
      ip: options.ip,
      relay: options.relay,
      database: options.mode !== 'forger',
      prepare: async (dir, database) => {
        await writeArkConfig(this.ark, dir, options);
        return {
          args: [this.ark.bin, ...arkArguments(options)],
          env: { ...arkEnvironment(dir, database), ...options.env },
        };
      },
      readyPath: '/node/status',
      startedLine: /Forger Manager started/,
    });
  }

  /** Starts LNI's built `kernel start`; resolves once its API answers. */
  startLniNode(options: LniNodeOptions): Promise<InteropNode> {
    const usesPostgres = options.mode !== 'forger' && options.database !== 'embedded';
    return this.launch({
      kind: 'lni',
      name: options.name,
      mode: options.mode,
      ip: options.ip,
      relay: options.relay,
      database: usesPostgres,
      prepare: async (dir, database) => {
        const config = options.configDir ?? join(dir, 'config');
        if (options.configDir === undefined) await writeLniConfig(this.ark, config, options);
        return {
          args: lniArguments(options.mode, config, join(this.shortPaths, options.name)),
          env: { ...lniEnvironment(dir, database), ...options.env },
        };
      },
      readyPath: '/blocks/last',
      startedLine: /"msg":"Node started"/,
    });
  }

  /**
   * Stops a node and starts it again with the same command line, directory and database: a
   * restart of the same node. Resolves with the new handle once its API answers (a forger: once
   * started); the old handle stays stopped.
   */
  async restart(node: InteropNode): Promise<InteropNode> {
    const launch = this.launches.get(node);
    if (!launch) throw new Error(`${node.name} is not a node of this network`);
    if (this.disposed) throw new Error('the network is disposed');
    await node.stop();
    const restarted = this.spawn(launch);
    this.nodes[this.nodes.indexOf(node)] = restarted;
    this.launches.delete(node);
    await this.waitUntilUp(restarted, launch.spec);
    return restarted;
  }

  allNodes(): readonly InteropNode[] {
    return this.nodes;
  }

  /** The last lines of every node's output and a summary of its warnings, for a failed test's report. */
  async logTails(lines = 80): Promise<string> {
    const parts: string[] = [];
    for (const node of this.nodes) {
      parts.push(
        `----- ${node.name}: ${node.kind} ${node.mode} at ${node.ip}, ${node.logFile}`,
        await node.tail(lines),
      );
    }
    // Last, as CI keeps only the end of the output: what each node complained of, grouped.
    parts.push('----- warnings and errors of each node (grouped, newest last)');
    for (const node of this.nodes) {
      const log = await node.log().catch(() => '');
      parts.push(
        `${node.name} (${node.kind} ${node.mode}):`,
        ...formatWarnings(groupWarnings(log), 6),
      );
    }
    return parts.join('\n');
  }

  /** Stops every node, removes namespaces, databases and the short-path directory. Idempotent. */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      for (const signal of SIGNALS) process.off(signal, this.onSignal);
      const stops = await Promise.allSettled(this.nodes.map((node) => node.stop()));
      const steps = [
        ...stops,
        ...(await Promise.allSettled([this.namespaces.remove()])),
        ...(await Promise.allSettled(this.databases.map((name) => dropDatabase(name)))),
        ...(await Promise.allSettled([rm(this.shortPaths, { recursive: true, force: true })])),
      ];
      process.off('exit', this.onExit);
      const errors = steps.flatMap((step) =>
        step.status === 'rejected' ? [step.reason as unknown] : [],
      );
      if (errors.length > 0) throw new AggregateError(errors, 'interop network cleanup failed');
    })();
    return this.disposed;
  }

  /** On process exit nothing can be awaited: kill, delete namespaces; databases wait for a sweep. */
  private disposeSync(): void {
    for (const node of this.nodes) node.killSync();
    this.namespaces.removeSync();
    rmSync(this.shortPaths, { recursive: true, force: true });
  }

  /** A node's API answers; a forger said it started (it was not waited for, and exited unseen). */
  private async waitUntilUp(node: InteropNode, spec: LaunchSpec): Promise<void> {
    if (spec.mode === 'forger') await node.waitForLine(spec.startedLine, API_TIMEOUT_MS);
    else await node.waitForApi(spec.readyPath, API_TIMEOUT_MS);
  }

  private async launch(spec: LaunchSpec): Promise<InteropNode> {
    if (this.disposed) throw new Error('the network is disposed');
    if (!/^[a-z][a-z0-9]{0,11}$/.test(spec.name) || spec.name === 'hub') {
      throw new Error(`node name '${spec.name}': 1 to 12 lowercase letters and digits, not 'hub'`);
    }
    if (this.nodes.some((node) => node.name === spec.name)) {
      throw new Error(`node name '${spec.name}' is taken`);
    }
    const dir = join(this.artifacts, spec.name);
    mkdirSync(dir, { recursive: true });

    let namespace: string;
    let ip: string;
    if (spec.mode === 'forger') {
      if (!spec.relay) throw new Error(`forger ${spec.name} needs the relay it runs beside`);
      ({ namespace, ip } = spec.relay);
    } else {
      ip = this.claimAddress(spec.ip);
      namespace = await this.namespaces.addNode(spec.name, ip);
    }

    let database: string | undefined;
    if (spec.database) {
      database = databaseName(this.run.id, spec.name);
      await createDatabase(database);
      this.databases.push(database);
    }

    const { args, env } = await spec.prepare(dir, database);
    const node = this.spawn({ spec, dir, namespace, ip, args, env });
    this.nodes.push(node);
    await this.waitUntilUp(node, spec);
    return node;
  }

  /** Starts the node's process; the caller lists it among the nodes dispose() stops. */
  private spawn(launch: Launch): InteropNode {
    const { spec, dir, namespace, ip, args, env } = launch;
    const logFile = join(dir, 'output.log');
    // A restart appends to the same file: what this process prints starts here.
    const logOffset = existsSync(logFile) ? statSync(logFile).size : 0;
    const child = NamespacedProcess.start({
      namespace,
      file: process.execPath,
      args,
      env,
      cwd: dir,
      logFile,
    });
    const node = new InteropNode({
      kind: spec.kind,
      name: spec.name,
      mode: spec.mode,
      ip,
      namespace,
      dir,
      logFile,
      logOffset,
      process: child,
      forward: (port) =>
        PortForward.open(namespace, port, join(this.shortPaths, `${spec.name}-${port}.sock`)),
    });
    this.launches.set(node, launch);
    return node;
  }

  private claimAddress(wanted: string | undefined): string {
    let address = wanted === undefined ? undefined : checkNodeAddress(wanted);
    for (let host = 2; address === undefined && host < 255; host++) {
      if (!this.addresses.has(`${SUBNET_PREFIX}${host}`)) address = `${SUBNET_PREFIX}${host}`;
    }
    if (address === undefined) throw new Error('no free address left in 10.77.0.0/24');
    if (this.addresses.has(address)) throw new Error(`address ${address} is taken`);
    this.addresses.add(address);
    return address;
  }
}

async function pruneOldRuns(): Promise<void> {
  const runs = (await readdir(ARTIFACTS_ROOT)).sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - KEPT_RUNS))) {
    await rm(join(ARTIFACTS_ROOT, old), { recursive: true, force: true });
  }
}
