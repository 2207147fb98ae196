import { Managers } from '@arkecosystem/crypto';
import { TEST_MILESTONE_ENTRIES } from './test-milestones.js';

/** Sets ARK's own crypto, the oracle of the slot and round tests, to the test milestones. */
export function useTestMilestonesInArk(): void {
  Managers.configManager.setFromPreset('devnet');
  const devnet = Managers.configManager.all();
  if (devnet === undefined) throw new Error("ARK's devnet preset did not load");
  Managers.configManager.setConfig({
    ...devnet,
    milestones: TEST_MILESTONE_ENTRIES.map((entry) => ({ ...entry })),
  });
}
