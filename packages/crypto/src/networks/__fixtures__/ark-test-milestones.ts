import { Managers } from '@arkecosystem/crypto';
import { TEST_MILESTONE_ENTRIES } from './test-milestones.js';

/** Sets ARK's own crypto, the oracle of the slot and round tests, to the test milestones. */
export function useTestMilestonesInArk(): void {
  Managers.configManager.setFromPreset('devnet');
  Managers.configManager.setConfig({
    ...Managers.configManager.all(),
    milestones: TEST_MILESTONE_ENTRIES as never,
  } as never);
}
