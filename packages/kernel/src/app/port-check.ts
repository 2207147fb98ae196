import { createServer } from 'node:net';
import type { Environment, ListeningPort, RunMode } from '../plugin.js';
import type { PluginInstance } from './plan.js';
import { throwIfProblems } from './plugin-options.js';

/** A port the node itself listens on besides its plugins' (the admin's loopback HTTP). */
export interface OwnPort {
  readonly host: string;
  readonly port: number;
  /** What sets it, as the operator knows it: `CORE_ADMIN_HTTP_PORT (the admin over HTTP)`. */
  readonly setBy: string;
}

interface Listener {
  readonly host: string;
  readonly port: number;
  /** `plugin 'x', option 'port' (set by CORE_X_PORT)`, or the own port's `setBy`. */
  readonly described: string;
}

/**
 * Checks the ports the planned plugins will listen on, before any plugin registers: two on the
 * same port, or a port another program holds, would otherwise surface as a crash halfway
 * through boot. One line per problem, naming the option and the variable that sets it.
 */
export async function checkListeningPorts(
  plugins: readonly PluginInstance[],
  node: { readonly mode: RunMode; readonly env: Environment },
  own: readonly OwnPort[] = [],
): Promise<void> {
  const listeners: Listener[] = [
    ...plugins.flatMap(({ plugin, options }) =>
      (plugin.listensOn?.(options) ?? []).map((port) => ({
        host: port.host,
        port: port.port,
        described: describe(plugin, port, node.env),
      })),
    ),
    ...own.map(({ host, port, setBy }) => ({ host, port, described: setBy })),
  ];
  const problems: string[] = [];
  const probed: Listener[] = [];
  for (const listener of listeners) {
    // Port 0 asks the system for any free port: nothing to check.
    if (listener.port === 0) continue;
    const clash = probed.find(
      (other) => other.port === listener.port && hostsOverlap(other.host, listener.host),
    );
    if (clash) {
      problems.push(
        `mode '${node.mode}': ${clash.described} and ${listener.described} ` +
          `are both port ${listener.port}: give each its own port`,
      );
      continue;
    }
    probed.push(listener);
    const refusal = await refusalToListen(listener.host, listener.port);
    if (refusal !== undefined) {
      problems.push(
        `mode '${node.mode}', ${listener.described}: port ${listener.port} on ` +
          `${listener.host} ${refusal}; free it or choose another port`,
      );
    }
  }
  throwIfProblems(problems);
}

/** `plugin 'x', option 'port' (set by CORE_X_PORT)`, or `(or CORE_X_PORT)` when app.json sets it. */
function describe(
  plugin: PluginInstance['plugin'],
  { option }: ListeningPort,
  env: Environment,
): string {
  const variable = Object.entries(plugin.environment ?? {}).find(
    ([, path]) => path === option,
  )?.[0];
  const where = `plugin '${plugin.name}', option '${option}'`;
  if (variable === undefined) return `${where} of app.json`;
  const fromEnv = env[variable] !== undefined && env[variable] !== '';
  return fromEnv ? `${where} (set by ${variable})` : `${where} of app.json (or ${variable})`;
}

const ANY_HOST = new Set(['0.0.0.0', '::', '']);

function hostsOverlap(a: string, b: string): boolean {
  return a === b || ANY_HOST.has(a) || ANY_HOST.has(b);
}

/** Why the port cannot be listened on, or undefined when it can (tried, then released). */
function refusalToListen(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve('is already in use');
      else if (error.code === 'EACCES') resolve('may not be used by this user (EACCES)');
      else if (error.code === 'EADDRNOTAVAIL')
        resolve('cannot be listened on: not an address of this machine');
      else resolve(`cannot be listened on (${error.code ?? error.message})`);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
