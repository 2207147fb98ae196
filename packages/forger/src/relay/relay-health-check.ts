import type { HealthCheck } from '@lni/kernel';

/** A relay as the health check uses it: its name and a request it must answer. */
export interface RelayProbe {
  readonly name: string;
  currentRound(): Promise<unknown>;
}

/**
 * The `relay` check of `/health`: the forger follows the first relay that answers, so one
 * answering relay is enough. Empty until the forger has started (it makes its relays at boot).
 */
export function relayHealthCheck(relays: () => readonly RelayProbe[]): HealthCheck {
  return { name: 'relay', run: () => anyRelayAnswers(relays()) };
}

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
