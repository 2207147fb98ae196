import { verifyEcdsa } from '../signatures/ecdsa.js';
import { verifySchnorr, verifySchnorrBatch, type SchnorrItem } from '../signatures/schnorr.js';

/** One signature to check: which scheme, the signed 32-byte hash, the signature, the signer. */
export interface VerificationItem {
  readonly kind: 'schnorr' | 'ecdsa';
  readonly hash: Buffer;
  readonly signature: Buffer;
  readonly publicKey: Buffer;
}

/** Whether one item's signature is valid; false for malformed items, never a throw. */
export function verifyItem(item: VerificationItem): boolean {
  if (item?.kind === 'schnorr') return verifySchnorr(item.hash, item.signature, item.publicKey);
  if (item?.kind === 'ecdsa') return verifyEcdsa(item.hash, item.signature, item.publicKey);
  return false;
}

/**
 * The validity of each item, on this thread. Schnorr items are first checked as one batch, which
 * is faster when all are valid (the usual case); only a failed batch is re-checked item by item.
 */
export function verifyEach(items: readonly VerificationItem[]): boolean[] {
  const results = new Array<boolean>(items.length).fill(false);
  const schnorr: SchnorrItem[] = [];
  const schnorrIndexes: number[] = [];
  items.forEach((item, index) => {
    if (item?.kind === 'schnorr') {
      schnorr.push(item);
      schnorrIndexes.push(index);
    } else {
      results[index] = verifyItem(item);
    }
  });
  const allValid = schnorr.length > 1 && verifySchnorrBatch(schnorr);
  schnorrIndexes.forEach((itemIndex, position) => {
    results[itemIndex] = allValid || verifyItem(schnorr[position] as VerificationItem);
  });
  return results;
}

/** Whether every item is valid, on this thread; stops at the first invalid ECDSA item. */
export function verifyAll(items: readonly VerificationItem[]): boolean {
  const schnorr: SchnorrItem[] = [];
  for (const item of items) {
    if (item?.kind === 'schnorr') schnorr.push(item);
    else if (!verifyItem(item)) return false;
  }
  return schnorr.length === 0 || verifySchnorrBatch(schnorr);
}
