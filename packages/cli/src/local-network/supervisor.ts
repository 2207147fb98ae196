import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { NodeOutput } from './node-output.js';
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
  readonly out: Writable & { isTTY?: boolean };
  /** The nodes' log records as readable lines; by default when `out` is a terminal. */
  readonly pretty?: boolean;
  /** How long to wait for one node's P2P port before starting the next anyway. */
  readonly listenTimeoutMs?: number;
}

interface RunningNode {
  readonly plan: LocalNodePlan;
  readonly child: ChildProcess;
  readonly output: NodeOutput;
  readonly exited: Promise<number | null>;
}

/**
 * Runs the nodes of a local network as child processes and stops them together on stop(). A
 * node that stops by itself (a signal from outside, a failure) is reported with its name and
 * why, and the others keep running. Each child has its own process group, so a terminal's
 * Ctrl-C reaches only the supervisor, which forwards a single SIGTERM (a second signal would
 * make a node exit without cleaning up).
 */
export class LocalNetworkSupervisor {
  private running: RunningNode[] = [];
  private stopping = false;
  private failed = false;
  private stillRunning = 0;

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
      if (!listening) node.output.say('not listening on P2P yet, starting the next node');
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
    const output = new NodeOutput(
      plan.name,
      this.deps.out,
      this.deps.pretty ?? this.deps.out.isTTY === true,
    );
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
        output.line(line),
      );
    }
    this.stillRunning += 1;
    const exited = new Promise<number | null>((resolve) => {
      let ended = false;
      const end = (code: number | null, exit: { failed: boolean; how: string }) => {
        if (ended) return;
        ended = true;
        this.onExit(output, exit);
        resolve(code);
      };
      child.once('error', (error) =>
        end(null, { failed: true, how: `could not start: ${error.message}` }),
      );
      // 'close' comes after the node's output has been read to its end: its last error is known.
      child.once('close', (code, signal) => end(code, describeExit(code, signal, output)));
    });
    return { plan, child, output, exited };
  }

  private onExit(output: NodeOutput, exit: { failed: boolean; how: string }): void {
    this.stillRunning -= 1;
    if (exit.failed) this.failed = true;
    // Stopping the network, a clean exit is what was asked: nothing to say.
    if (this.stopping && !exit.failed) return;
    const others = this.stopping
      ? ''
      : this.stillRunning > 0
        ? `; ${this.stillRunning} other node(s) still running (Ctrl-C stops them)`
        : '; no node is running any more';
    output.say(`${exit.failed ? 'failed' : 'stopped'}: ${exit.how}${others}`);
  }
}

/** How a node ended, in words: the signal or exit code, and the reason it gave. */
function describeExit(
  code: number | null,
  signal: NodeJS.Signals | null,
  output: NodeOutput,
): { failed: boolean; how: string } {
  if (signal !== null) return { failed: true, how: `killed by ${signal}` };
  if (code === 0) {
    const after = output.stopSignal ? ` after ${output.stopSignal}` : '';
    return { failed: false, how: `exit code 0${after}` };
  }
  const reason = output.lastError ? `: ${output.lastError}` : '';
  return { failed: true, how: `exit code ${code}${reason}` };
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
