import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { localNodeEnvironment } from './prepare.js';
import type { LocalNodePlan } from './plan.js';

export interface SupervisorDeps {
  /** The `kernel` script each node runs as. */
  readonly bin: string;
  readonly network: string;
  readonly nodes: readonly LocalNodePlan[];
  /** The environment the nodes inherit (the node's own ports are set over it). */
  readonly env: NodeJS.ProcessEnv;
  /** Where the nodes' output goes, each line prefixed with the node's name. */
  readonly out: Writable;
  /** How long to wait for one node's P2P port before starting the next anyway. */
  readonly listenTimeoutMs?: number;
}

interface RunningNode {
  readonly plan: LocalNodePlan;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
}

/**
 * Runs the nodes of a local network as child processes and stops them together: on stop() or
 * when any node exits by itself, every other node gets SIGTERM. Each child has its own process
 * group, so a terminal's Ctrl-C reaches only the supervisor, which forwards a single SIGTERM
 * (a second signal would make a node exit without cleaning up).
 */
export class LocalNetworkSupervisor {
  private running: RunningNode[] = [];
  private stopping = false;
  private failed = false;

  constructor(private readonly deps: SupervisorDeps) {}

  /**
   * Starts the nodes one after another, each once the one before listens on P2P: a node dials
   * its seeds when it starts, so every node finds the earlier ones up and the mesh is complete.
   */
  async start(): Promise<void> {
    for (const plan of this.deps.nodes) {
      if (this.stopping) return;
      const node = this.spawnNode(plan);
      this.running.push(node);
      const listening = await Promise.race([
        waitForPort(plan.p2pPort, this.deps.listenTimeoutMs ?? 60_000),
        node.exited.then(() => true),
      ]);
      if (!listening) {
        this.deps.out.write(`${plan.name} | not listening on P2P yet, starting the next node\n`);
      }
    }
  }

  /** Resolves with the exit code once every node has exited: non-zero if one failed. */
  async wait(): Promise<number> {
    await Promise.all(this.running.map((node) => node.exited));
    return this.failed ? 1 : 0;
  }

  pids(): { name: string; pid: number | undefined }[] {
    return this.running.map((node) => ({ name: node.plan.name, pid: node.child.pid }));
  }

  /** SIGTERM to every node still running; a second call kills them outright. */
  stop(): void {
    const signal = this.stopping ? 'SIGKILL' : 'SIGTERM';
    this.stopping = true;
    for (const node of this.running) {
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill(signal);
    }
  }

  private spawnNode(plan: LocalNodePlan): RunningNode {
    const child = spawn(
      process.execPath,
      [
        this.deps.bin,
        'start',
        '--mode',
        plan.mode,
        '--network',
        this.deps.network,
        '--config',
        plan.config,
        '--data',
        plan.data,
      ],
      {
        env: { ...this.deps.env, ...localNodeEnvironment(plan) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
        this.deps.out.write(`${plan.name} | ${line}\n`),
      );
    }
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', (error) => {
        this.deps.out.write(`${plan.name} | could not start: ${error.message}\n`);
        this.onExit(plan, null);
        resolve(null);
      });
      child.once('exit', (code, signal) => {
        const expected = this.stopping && code === 0;
        if (!expected) {
          this.deps.out.write(
            `${plan.name} | exited ${signal ? `on ${signal}` : `with code ${code}`}\n`,
          );
        }
        this.onExit(plan, code);
        resolve(code);
      });
    });
    return { plan, child, exited };
  }

  private onExit(_plan: LocalNodePlan, code: number | null): void {
    if (code !== 0) this.failed = true;
    // One node gone (crashed, or killed from outside) ends the whole network.
    if (!this.stopping) {
      this.failed = true;
      this.stop();
    }
  }
}

/** Resolves true once 127.0.0.1:`port` accepts a connection, false after `timeoutMs`. */
async function waitForPort(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}
