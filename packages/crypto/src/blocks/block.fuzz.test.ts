import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keysFromPassphrase } from '../identities/keys.js';
import { FULL_ID_HEIGHT, testMilestones } from './__fixtures__/milestones.js';
import { addressFromPublicKey } from '../identities/address.js';
import { transfer } from '../transactions/builders/transfer-builder.js';
import {
  BlockDeserializationError,
  deserializeBlock,
  forgeBlock,
  serializeFullBlock,
} from './index.js';

const INPUTS = 100_000;
const keys = keysFromPassphrase('fuzz generator');
const recipient = addressFromPublicKey(keysFromPassphrase('fuzz recipient').publicKey, 23);

// Deterministic PRNG so a failure can be replayed from the printed seed.
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedBlock(height: number, transactionCount: number): Buffer {
  const transactions = Array.from({ length: transactionCount }, (_, index) =>
    transfer({ network: 23 })
      .recipientId(recipient)
      .amount(BigInt(index + 1))
      .nonce(BigInt(index + 1))
      .vendorField(index % 2 ? 'fuzz' : '')
      .sign('fuzz sender')
      .build(),
  );
  const previousBlock = height > FULL_ID_HEIGHT ? 'ab'.repeat(32) : '12345678901234567';
  const block = forgeBlock({
    transactions,
    previousBlock: { id: previousBlock, height: height - 1 },
    timestamp: 1234,
    keys,
    milestones: testMilestones,
  });
  return serializeFullBlock(block, testMilestones);
}

const seeds = [seedBlock(2, 0), seedBlock(5, 3), seedBlock(FULL_ID_HEIGHT + 5, 1)];

function mutate(input: Buffer, random: () => number): Buffer {
  const pick = (n: number) => Math.floor(random() * n);
  switch (pick(6)) {
    case 0:
      return input.subarray(0, pick(input.length + 1));
    case 1: {
      const copy = Buffer.from(input);
      for (let i = 0, n = 1 + pick(4); i < n; i++) copy[pick(copy.length)] = pick(256);
      return copy;
    }
    case 2: {
      // Lengths and counts set to huge values must not allocate or loop on them.
      const copy = Buffer.from(input);
      const at = pick(Math.max(1, copy.length - 4));
      copy.writeUInt32LE([0xffffffff, 0x7fffffff, 0x10000, pick(2 ** 32)][pick(4)]!, at);
      return copy;
    }
    case 3:
      return Buffer.concat([input, randomBytes(1 + pick(16))]);
    case 4:
      return Buffer.from(randomBytes(pick(400)));
    default: {
      const at = pick(input.length);
      return Buffer.concat([input.subarray(0, at), randomBytes(1 + pick(8)), input.subarray(at)]);
    }
  }
}

describe('block deserialization under random and mutated bytes', () => {
  it(`answers ${INPUTS} inputs with a block or a typed error naming an offset`, () => {
    const seed = Date.now() >>> 0;
    const random = prng(seed);
    let typedErrors = 0;
    for (let i = 0; i < INPUTS; i++) {
      const input = mutate(seeds[i % seeds.length]!, random);
      try {
        deserializeBlock(input, testMilestones);
      } catch (error) {
        if (!(error instanceof BlockDeserializationError)) {
          throw new Error(`seed ${seed}, input ${input.toString('hex')}: untyped error`, {
            cause: error,
          });
        }
        if (!(error.offset >= 0 && error.offset <= input.length)) {
          throw new Error(`seed ${seed}: offset ${error.offset} outside the ${input.length} bytes`);
        }
        typedErrors++;
      }
    }
    // Most mutations break the block; a fuzzer that never reaches an error tests nothing.
    expect(typedErrors).toBeGreaterThan(INPUTS / 4);
  });
});
