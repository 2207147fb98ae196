import { Crypto } from '@arkecosystem/crypto';
import { Milestones } from '@lni/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestMilestonesInArk } from '../../../crypto/src/networks/__fixtures__/ark-test-milestones.js';
// The round and slot tests' milestones (their home is @lni/crypto, beside the slot clock):
// 8 s blocks, 4 s from height 11, 6 s from height 35.
import {
  TEST_MILESTONE_ENTRIES,
  testTimestampOf as timestampOf,
} from '../../../crypto/src/networks/__fixtures__/test-milestones.js';
import type { FullBlock } from '../blocks/block-store.js';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { roundForging, statusForging } from './forging-answers.js';
import { RoundKeeper } from './round-keeper.js';

/** A block of which the slot arithmetic reads only the height and the timestamp. */
const blockAt = (height: number): FullBlock => ({
  id: String(height),
  version: 0,
  timestamp: timestampOf(height),
  height,
  previousBlock: height === 1 ? null : String(height - 1),
  numberOfTransactions: 0,
  totalAmount: 0n,
  totalFee: 0n,
  reward: 0n,
  payloadLength: 0,
  payloadHash: '00'.repeat(32),
  generatorPublicKey: `02${'11'.repeat(32)}`,
  blockSignature: '',
});

describe("the P2P forging answers against ARK 3.9.1's rules (oracle)", () => {
  const roundKeeper = new RoundKeeper({
    wallets: new WalletRepository(),
    milestones: new Milestones(TEST_MILESTONE_ENTRIES),
  });
  /** Each last height with the times (epoch seconds) the answers are asked at. */
  const asked = Array.from({ length: 40 }, (_, index) => {
    const last = blockAt(index + 1);
    return { last, times: Array.from({ length: 30 }, (_, t) => last.timestamp + t) };
  });

  beforeAll(useTestMilestonesInArk);

  it('getStatus: the slot of now and its forging window at the last block height', () => {
    for (const { last, times } of asked) {
      roundKeeper.applied(last);
      for (const now of times) {
        const ark = Crypto.Slots.getSlotInfo(timestampOf, now, last.height);
        expect(statusForging(roundKeeper, last, now), `height ${last.height}, at ${now}`).toEqual({
          forgingAllowed: ark.forgingStatus,
          currentSlot: ark.slotNumber,
        });
      }
    }
  });

  it('getCurrentRound: the window at the next height, and only while the slot is empty', () => {
    let emptySlotsRefused = 0;
    for (const { last, times } of asked) {
      if (roundKeeper.timestampAt(last.height) === undefined) roundKeeper.applied(last);
      for (const now of times) {
        const ark = Crypto.Slots.getSlotInfo(timestampOf, now, last.height + 1);
        const ours = roundForging(roundKeeper, last, now);
        expect(ours.window.start, `height ${last.height}, at ${now}`).toBe(ark.startTime);
        expect(ours.canForge).toBe(ark.forgingStatus && last.timestamp < ark.startTime);
        if (ark.forgingStatus && !ours.canForge) emptySlotsRefused += 1;
      }
    }
    // The last block's own slot is open in ARK's answer; ours refuses a second block for it.
    expect(emptySlotsRefused).toBeGreaterThan(0);
  });
});
