import { availableParallelism } from 'node:os';
import type { DatabaseConnection } from '../connection/database.js';
import { SearchTimeoutError } from '../errors.js';

/** Connections of the pool that searches never take: the node's block writes find them free. */
export const RESERVED_FOR_WRITERS = 2;

/**
 * Lets at most `slots` API searches hold a database connection at once; the rest wait in
 * order, each at most its time budget. Without it a burst of heavy searches takes every
 * connection of the pool, and the block being applied waits behind them.
 */
export class SearchGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  async run<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
    if (this.running >= this.slots) await this.turn(timeoutMs);
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  /** Waits until a running search hands its slot over, or throws past the budget. */
  private turn(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(go);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new SearchTimeoutError(timeoutMs));
      }, timeoutMs);
      this.waiting.push(go);
    });
  }
}

const gates = new WeakMap<DatabaseConnection, SearchGate>();
const costlyGates = new WeakMap<DatabaseConnection, SearchGate>();

/** The gate of one connection pool, shared by every search on it. */
export function searchGateOf(database: DatabaseConnection, poolSize: number): SearchGate {
  let gate = gates.get(database);
  if (!gate) {
    gate = new SearchGate(Math.max(1, poolSize - RESERVED_FOR_WRITERS));
    gates.set(database, gate);
  }
  return gate;
}

/**
 * The gate of the searches whose cost grows with the data (a count over many rows, a deep
 * offset): one fewer at once than the machine has cores, so that however many arrive,
 * PostgreSQL leaves a core to the node applying blocks and to its writes. The others wait
 * their turn within their time budget.
 */
export function costlySearchGateOf(database: DatabaseConnection): SearchGate {
  let gate = costlyGates.get(database);
  if (!gate) {
    gate = new SearchGate(Math.max(1, availableParallelism() - 1));
    costlyGates.set(database, gate);
  }
  return gate;
}
