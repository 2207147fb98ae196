import { afterAll, beforeAll, expect, type RunnerTestSuite } from 'vitest';
import { InteropNetwork } from './interop-network.js';
import { remainsOfRun } from './remains.js';

/**
 * Hooks for a scenario file: a network created before the file's own `beforeAll` hooks run,
 * and after everything else: the last lines of every node's output printed when a test or
 * hook failed, the network disposed, and a check that nothing of it remains (namespaces,
 * databases, sockets, processes).
 */
export function useInteropNetwork(): { readonly network: InteropNetwork } {
  let network: InteropNetwork | undefined;
  beforeAll(async () => {
    network = await InteropNetwork.create();
  });
  // eslint-disable-next-line no-empty-pattern -- vitest passes the suite second, after fixtures
  afterAll(async ({}, suite) => {
    if (!network) return;
    if (!everyTestPassed(suite)) {
      console.error(`Node logs in ${network.artifacts}\n${await network.logTails()}`);
    }
    await network.dispose();
    expect(await remainsOfRun(network.run.id, network.artifacts)).toEqual([]);
  });
  return {
    get network(): InteropNetwork {
      if (!network) throw new Error('the interop network is created in beforeAll');
      return network;
    },
  };
}

/** True when every test of the suite ran and passed (a failed hook leaves them failed or unrun). */
function everyTestPassed(suite: Readonly<RunnerTestSuite>): boolean {
  return suite.tasks.every((task) =>
    task.type === 'suite'
      ? everyTestPassed(task)
      : task.mode === 'skip' || task.result?.state === 'pass',
  );
}
