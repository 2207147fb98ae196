import { readFile } from 'node:fs/promises';
import { ApiClient } from '../../support/node-harness.js';
import { eventually } from '../../support/free-port.js';
import type { NamespacedProcess } from './namespaced-process.js';
import type { PortForward } from './port-forward.js';

export type NodeMode = 'core' | 'relay' | 'forger';

/** Every node of a network listens on the same ports: ARK dials peers back on its own. */
export const P2P_PORT = 4000;
export const API_PORT = 4003;

export interface InteropNodeParts {
  readonly kind: 'ark' | 'lni';
  readonly name: string;
  readonly mode: NodeMode;
  readonly ip: string;
  readonly namespace: string;
  /** The node's directory under the run's artifacts (config, data, logs). */
  readonly dir: string;
  /** The process's stdout and stderr. */
  readonly logFile: string;
  /** Where this process's output begins in `logFile` (after an earlier run's, on a restart). */
  readonly logOffset: number;
  readonly process: NamespacedProcess;
  /** Opens a forward from the test process to a port of the node's namespace. */
  readonly forward: (port: number) => Promise<PortForward>;
}

/** A running node (ARK or LNI) in its namespace, as the test process sees it. */
export class InteropNode {
  private readonly forwards: PortForward[] = [];
  private apiBase: string | undefined;
  private stopped: Promise<void> | undefined;

  constructor(private readonly parts: InteropNodeParts) {}

  get kind(): 'ark' | 'lni' {
    return this.parts.kind;
  }
  get name(): string {
    return this.parts.name;
  }
  get mode(): NodeMode {
    return this.parts.mode;
  }
  /** The node's address in 10.77.0.0/24; its P2P server is on `P2P_PORT` there. */
  get ip(): string {
    return this.parts.ip;
  }
  get namespace(): string {
    return this.parts.namespace;
  }
  get dir(): string {
    return this.parts.dir;
  }
  get logFile(): string {
    return this.parts.logFile;
  }

  /** `http://127.0.0.1:<forwarded port>/api`, reachable from the test process. */
  get apiUrl(): string {
    if (this.apiBase === undefined) throw new Error(`${this.name} (${this.mode}) has no API`);
    return this.apiBase;
  }

  get api(): ApiClient {
    return new ApiClient(this.apiUrl);
  }

  running(): boolean {
    return this.parts.process.running();
  }

  /** A loopback port of the test process that leads to `port` in the node's namespace. */
  async expose(port: number): Promise<number> {
    const forward = await this.parts.forward(port);
    this.forwards.push(forward);
    return forward.hostPort;
  }

  /** Forwards the API and waits until `probePath` answers, failing early if the node exits. */
  async waitForApi(probePath: string, timeoutMs: number): Promise<void> {
    this.apiBase = `http://127.0.0.1:${await this.expose(API_PORT)}/api`;
    await eventually(
      async () => {
        if (!this.running()) {
          // The node's own last lines say why; CI output keeps the error's text nearest the end.
          throw new ExitedEarly(
            `${this.name} exited before its API answered; its last lines:\n${await this.tail(25)}`,
          );
        }
        const response = await fetch(`${this.apiBase}${probePath}`);
        return response.ok ? true : undefined;
      },
      timeoutMs,
      `the API of ${this.name} (${this.kind} ${this.mode})`,
      (error) => error instanceof ExitedEarly,
    );
  }

  /**
   * Waits until the node's output has a line matching `started` (a forger has no API to ask),
   * failing early with its last lines if it exits first.
   */
  async waitForLine(started: RegExp, timeoutMs: number): Promise<void> {
    await eventually(
      async () => {
        const output = await readFile(this.logFile).catch(() => Buffer.alloc(0));
        if (started.test(output.subarray(this.parts.logOffset).toString('utf8'))) return true;
        if (!this.running()) {
          throw new ExitedEarly(
            `${this.name} exited before it started; its last lines:\n${await this.tail(25)}`,
          );
        }
        return undefined;
      },
      timeoutMs,
      `${this.name} (${this.kind} ${this.mode}) to say it started`,
      (error) => error instanceof ExitedEarly,
    );
  }

  async log(): Promise<string> {
    return stripColours(await readFile(this.logFile, 'utf8'));
  }

  /** Resolves once the node's output matches `pattern`. */
  async waitForLog(pattern: RegExp, timeoutMs: number): Promise<void> {
    await eventually(
      async () => (pattern.test(await this.log()) ? true : undefined),
      timeoutMs,
      `${pattern} in the output of ${this.name}`,
    );
  }

  async tail(lines: number): Promise<string> {
    const text = await this.log().catch((error: unknown) => `(no output: ${String(error)})`);
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  }

  /** SIGTERM, SIGKILL after the grace period, and the forwards closed. Idempotent. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      const results = await Promise.allSettled([
        this.parts.process.stop(),
        ...this.forwards.map((forward) => forward.close()),
      ]);
      const errors = results.flatMap((result) =>
        result.status === 'rejected' ? [result.reason as unknown] : [],
      );
      if (errors.length > 0) throw new AggregateError(errors, `stopping ${this.name} failed`);
    })();
    return this.stopped;
  }

  /** For exit handlers. */
  killSync(): void {
    this.parts.process.killSync();
    for (const forward of this.forwards) forward.closeSync();
  }
}

class ExitedEarly extends Error {}

function stripColours(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
