import { randomBytes } from 'node:crypto';
import {
  cryptoBackend,
  keysFromPrivateKey,
  signEcdsa,
  signSchnorr,
  verifyEcdsa,
  verifySchnorr,
} from '../src/index.js';
import { throughputWithCpu, type BenchRow } from './measure.js';

export interface SignedItems {
  readonly hashes: Buffer[];
  readonly schnorr: Buffer[];
  readonly ecdsa: Buffer[];
  readonly publicKeys: Buffer[];
}

/** `count` random hashes, each signed with both schemes by its own key. */
export function signedItems(count: number): SignedItems {
  const items: SignedItems = { hashes: [], schnorr: [], ecdsa: [], publicKeys: [] };
  for (let i = 0; i < count; i++) {
    const keys = keysFromPrivateKey(randomBytes(32));
    const hash = randomBytes(32);
    items.hashes.push(hash);
    items.schnorr.push(signSchnorr(hash, keys.privateKey));
    items.ecdsa.push(signEcdsa(hash, keys.privateKey));
    items.publicKeys.push(keys.publicKey);
  }
  return items;
}

/** Single-signature verification on this thread, with whichever backend loaded. */
export function benchSignatures(ms = 1500): BenchRow[] {
  const items = signedItems(256);
  const backend = cryptoBackend();
  let next = 0;
  const schnorr = throughputWithCpu(
    () => {
      const i = next++ & 255;
      if (!verifySchnorr(items.hashes[i]!, items.schnorr[i]!, items.publicKeys[i]!)) {
        throw new Error('bench: valid Schnorr signature rejected');
      }
    },
    1,
    ms,
  );
  const ecdsa = throughputWithCpu(
    () => {
      const i = next++ & 255;
      if (!verifyEcdsa(items.hashes[i]!, items.ecdsa[i]!, items.publicKeys[i]!)) {
        throw new Error('bench: valid ECDSA signature rejected');
      }
    },
    1,
    ms,
  );
  const cpuNote = (perCpuSecond: number) =>
    `${Math.round(perCpuSecond).toLocaleString('en-US')}/s of CPU time`;
  return [
    {
      name: `Schnorr verify, 1 core (${backend})`,
      opsPerSecond: schnorr.perSecond,
      note:
        backend === 'native'
          ? `${cpuNote(schnorr.perCpuSecond)}; target ≥ 20,000/s`
          : cpuNote(schnorr.perCpuSecond),
    },
    {
      name: `ECDSA verify, 1 core (${backend})`,
      opsPerSecond: ecdsa.perSecond,
      note: cpuNote(ecdsa.perCpuSecond),
    },
  ];
}
