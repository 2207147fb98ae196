import { describe, expect, it } from 'vitest';
import { keysFromPassphrase } from '../identities/keys.js';
import {
  DeserializationError,
  delegateRegistration,
  delegateResignation,
  deserializeTransaction,
  htlcClaim,
  htlcLock,
  htlcRefund,
  ipfs,
  multiPayment,
  multiSignature,
  secondSignature,
  serializeTransaction,
  transfer,
  vote,
} from './index.js';

const INPUTS = 100_000;
// Seeded so a failure can be replayed: FUZZ_SEED=<seed from the message> npx vitest run ...
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) || 1;
let state = SEED;
/** xorshift32: fast enough for 100,000 inputs, unlike a CSPRNG call per byte. */
function randomInt(below: number): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) % below;
}
const network = { network: 30 };
const recipient = 'D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax';
const key = (p: string) => keysFromPassphrase(p).publicKey.toString('hex');

/** Valid transactions of every type and signature layout, the seeds that mutations start from. */
function seeds(): Buffer[] {
  const hash = 'ab'.repeat(32);
  const built = [
    transfer(network)
      .recipientId(recipient)
      .amount(5)
      .vendorField('hello ✓')
      .nonce(1)
      .sign('a')
      .secondSign('b'),
    transfer(network).version(1).fee(0).recipientId(recipient).amount(5).sign('a'),
    secondSignature(network).secondPassphrase('b').nonce(2).sign('a'),
    delegateRegistration(network).username('fuzz_me').nonce(3).sign('a'),
    delegateRegistration(network).version(1).fee(0).username('genesis_1').sign('a').secondSign('c'),
    vote(network).unvote(key('x')).vote(key('y')).nonce(4).sign('a'),
    vote(network).version(1).fee(0).vote(key('y')).sign('a'),
    multiSignature(network)
      .multiSignatureAsset({ min: 2, publicKeys: [key('a'), key('b'), key('c')] })
      .senderPublicKey(key('a'))
      .multiSign('a', 0)
      .multiSign('b', 1)
      .multiSign('c', 2)
      .sign('a'),
    ipfs(network).ipfsAsset('QmR45FmbVVrixReBwJkhEKde2qwHYaQzGxu4ZoDeswuF9w').nonce(5).sign('a'),
    multiPayment(network)
      .addPayment(recipient, 1)
      .addPayment(recipient, 2)
      .vendorField('x')
      .nonce(6)
      .sign('a'),
    delegateResignation(network).nonce(7).sign('a'),
    htlcLock(network)
      .recipientId(recipient)
      .amount(9)
      .htlcLockAsset({ secretHash: hash, expiration: { type: 1, value: 99 } })
      .nonce(8)
      .sign('a'),
    htlcClaim(network)
      .fee(0)
      .htlcClaimAsset({ lockTransactionId: hash, unlockSecret: hash })
      .nonce(9)
      .sign('a'),
    htlcRefund(network).fee(0).htlcRefundAsset({ lockTransactionId: hash }).nonce(10).sign('a'),
    // A multisignature wallet's transfer: participant signatures only.
    transfer(network)
      .recipientId(recipient)
      .amount(1)
      .nonce(11)
      .senderPublicKey(key('m'))
      .multiSign('a', 0)
      .multiSign('b', 3),
  ];
  return built.map((builder) => serializeTransaction(builder.build()));
}

function mutate(seed: Buffer): Buffer {
  const bytes = Buffer.from(seed);
  switch (randomInt(6)) {
    case 0: {
      for (let flips = 1 + randomInt(8); flips > 0; flips--) {
        const at = randomInt(bytes.length);
        bytes[at] = (bytes[at] as number) ^ (1 << randomInt(8));
      }
      return bytes;
    }
    case 1:
      return bytes.subarray(0, randomInt(bytes.length));
    case 2:
      return Buffer.concat([bytes, randomBytes(1 + randomInt(300))]);
    case 3: {
      // Counts and lengths set to their largest values.
      const at = randomInt(bytes.length);
      bytes[at] = randomInt(2) === 0 ? 0xff : 0x00;
      if (at + 1 < bytes.length) bytes[at + 1] = 0xff;
      return bytes;
    }
    case 4:
      return Buffer.concat([
        bytes.subarray(0, randomInt(bytes.length)),
        randomBytes(randomInt(80)),
      ]);
    default:
      return Buffer.concat([
        Buffer.from([0xff, 1 + randomInt(2), 30]),
        randomBytes(randomInt(400)),
      ]);
  }
}

function randomBytes(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = randomInt(256);
  return bytes;
}

describe('deserializeTransaction on hostile input', () => {
  it(`gives only DeserializationError or a canonical transaction for ${INPUTS} inputs`, () => {
    const valid = seeds();
    for (const seed of valid)
      expect(serializeTransaction(deserializeTransaction(seed))).toEqual(seed);
    let accepted = 0;
    const reasons = new Set<string>();
    for (let i = 0; i < INPUTS; i++) {
      const seed = valid[i % valid.length] as Buffer;
      const input = i % 10 === 9 ? randomBytes(randomInt(300)) : mutate(seed);
      try {
        const data = deserializeTransaction(input);
        accepted++;
        // What is accepted is canonical: it serializes back to exactly the input.
        if (!serializeTransaction(data).equals(input)) {
          throw new Error(`seed ${SEED}: not canonical: ${input.toString('hex')}`);
        }
      } catch (error) {
        if (!(error instanceof DeserializationError)) {
          throw new Error(`seed ${SEED}: ${String(error)} for ${input.toString('hex')}`, {
            cause: error,
          });
        }
        expect(error.offset).toBeLessThanOrEqual(input.length);
        reasons.add(error.reason);
      }
    }
    expect(accepted).toBeGreaterThan(0);
    expect([...reasons].sort()).toEqual(
      expect.arrayContaining([
        'malformed',
        'oversized',
        'trailing-bytes',
        'truncated',
        'unknown-type',
      ]),
    );
  }, 60_000);
});
