import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import { postgresCpuSeconds, processCpuSeconds } from './process-cpu.js';

/** autocannon's setupRequest giving each request one of a route's paths (LNI_BENCH_PATHS). */
const ANY_OF_PATHS = fileURLToPath(new URL('./any-of-paths.cjs', import.meta.url));

/** What a route asks for: one path, or any of several at random. */
export type RoutePaths = string | readonly string[];

/** A node under measure: where it answers, and its process, whose CPU time is read. */
export interface MeasuredNode {
  readonly uri: string;
  readonly pid: number;
}

export function pathsOf(path: RoutePaths): readonly string[] {
  return typeof path === 'string' ? [path] : path;
}

/**
 * Timed autocannon runs of one route against one node, at a number of connections (and, given
 * a rate, at that fixed rate), with the CPU time each request cost the node and its standby.
 */
export class RouteRuns {
  readonly #connections: number;
  readonly #seconds: number;
  readonly #rate: number | undefined;

  constructor({
    connections,
    seconds,
    rate,
  }: {
    connections: number;
    /** A run's length unless told otherwise. */
    seconds: number;
    /** A fixed rate in requests/s for every run; as fast as the node answers without it. */
    rate?: number;
  }) {
    this.#connections = connections;
    this.#seconds = seconds;
    this.#rate = rate;
  }

  /**
   * Requests/s of a route, each request for the path or one of the paths at random; every
   * answer a 200.
   */
  async requestsPerSecond(
    uri: string,
    path: RoutePaths,
    seconds = this.#seconds,
  ): Promise<{ rps: number; p99: number; requests: number }> {
    const paths = pathsOf(path);
    // Read by the worker thread autocannon starts, whose environment is a copy of this one.
    process.env.LNI_BENCH_PATHS = JSON.stringify(paths);
    const result = await autocannon({
      url: `${uri}${paths[0]}`,
      connections: this.#connections,
      duration: seconds,
      workers: 1,
      ...(paths.length > 1 && {
        // A file, not a function, with workers (typed as the function autocannon runs alone).
        requests: [{ method: 'GET', setupRequest: ANY_OF_PATHS as never }],
      }),
      ...(this.#rate !== undefined && { overallRate: this.#rate }),
    });
    if (result.non2xx > 0) {
      throw new Error(`${uri}${paths[0]}: ${result.non2xx} answers other than 2xx`);
    }
    return {
      rps: result.requests.average,
      p99: result.latency.p99,
      requests: result.requests.total,
    };
  }

  /**
   * One run of a route (requestsPerSecond) with the CPU time per request of the node's process
   * and, given its data directory, of the standby's PostgreSQL.
   */
  async measuredRun(node: MeasuredNode, path: RoutePaths, standby?: string) {
    const cpuBefore = [processCpuSeconds(node.pid), standby ? postgresCpuSeconds(standby) : 0];
    const run = await this.requestsPerSecond(node.uri, path);
    const perRequest = (seconds: number, index: number) =>
      ((seconds - (cpuBefore[index] as number)) * 1_000) / Math.max(1, run.requests);
    return {
      ...run,
      nodeMs: perRequest(processCpuSeconds(node.pid), 0),
      standbyMs: standby ? perRequest(postgresCpuSeconds(standby), 1) : 0,
    };
  }
}
