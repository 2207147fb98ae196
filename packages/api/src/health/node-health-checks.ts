import type { NetworkConfig } from '@lni/crypto';
import type { NodeSources } from '../ledger/node-sources.js';
import { nodeSyncState } from '../routes/node-sync.js';
import type { HealthCheck } from './health-check.js';

/** The database connection as the health check uses it (the database plugin's `database`). */
export interface DatabaseProbe {
  /** Probes now; false when the database does not answer. */
  checkAvailability(): Promise<boolean>;
  readonly description: string;
}

/** A forger's relay as the health check uses it (the forger plugin's `forgerRelays`). */
export interface RelayProbe {
  readonly name: string;
  currentRound(): Promise<unknown>;
}

export interface NodeHealthSources {
  /** Undefined when the database plugin does not run in this mode. */
  readonly database: () => DatabaseProbe | undefined;
  /** Undefined when the state plugin does not run here: then sync is not checked. */
  readonly network: () => NetworkConfig | undefined;
  readonly sync: Pick<NodeSources, 'lastBlock' | 'peers' | 'now'>;
  /** Undefined when no forger runs here; empty while the forger has not started. */
  readonly relays: () => readonly RelayProbe[] | undefined;
}

/** The checks of `/health` for the plugins this node runs: database, sync, forger's relay. */
export function nodeHealthChecks(sources: NodeHealthSources): HealthCheck[] {
  const checks: HealthCheck[] = [];
  if (sources.database() !== undefined) {
    checks.push({
      name: 'database',
      run: async () => {
        const database = sources.database() as DatabaseProbe;
        if (!(await database.checkAvailability())) {
          throw new Error(`the database (${database.description}) does not answer`);
        }
        return {};
      },
    });
  }
  if (sources.network() !== undefined) {
    checks.push({
      name: 'sync',
      run: () => {
        const { synced, behind, lastBlock } = nodeSyncState(
          sources.sync,
          sources.network() as NetworkConfig,
        );
        const height = lastBlock?.height ?? 0;
        if (!synced) {
          return Promise.reject(new Error(`not synced: ${behind} blocks behind at ${height}`));
        }
        return Promise.resolve({ height, behind });
      },
    });
  }
  if (sources.relays() !== undefined) {
    checks.push({ name: 'relay', run: () => anyRelayAnswers(sources.relays() ?? []) });
  }
  return checks;
}

/** The forger follows the first relay that answers, so one answering relay is enough. */
async function anyRelayAnswers(relays: readonly RelayProbe[]): Promise<Record<string, unknown>> {
  if (relays.length === 0) throw new Error('the forger has not started');
  const failures: string[] = [];
  for (const relay of relays) {
    try {
      await relay.currentRound();
      return { relay: relay.name };
    } catch (error) {
      failures.push(`${relay.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no relay answers (${failures.join('; ')})`);
}
