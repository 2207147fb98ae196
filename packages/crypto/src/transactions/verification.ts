import { verifyEcdsa } from '../signatures/ecdsa.js';
import { verifySchnorr } from '../signatures/schnorr.js';
import type { VerificationItem } from '../verification/verification-item.js';
import { IdentityError } from '../identities/identity-error.js';
import { TransactionType, type TransactionData } from './transaction-data.js';
import { TransactionError } from './transaction-error.js';
import { transactionHash } from './transaction-hash.js';

/** What the sender's wallet has registered that changes who must sign. */
export interface SignerRegistrations {
  /** The wallet's multisignature (for a registration, the asset's own is used). */
  readonly multiSignature?: { readonly min: number; readonly publicKeys: readonly string[] };
  /** The wallet's registered second public key. */
  readonly secondPublicKey?: string;
}

const SENDER_HASH = { excludeSignature: true, excludeSecondSignature: true } as const;
const PARTICIPANT_HASH = { ...SENDER_HASH, excludeMultiSignature: true } as const;
const SCHNORR_HEX = 128;

/**
 * Whether the transaction carries every signature its sender's wallet needs, as ARK 3.0 judges
 * it: the sender's (unless a multisignature wallet signs with participants), the second one
 * when a second key is registered (and none otherwise), and at least `min` valid participant
 * signatures for a multisignature wallet or registration. Never throws for bad signatures.
 */
export function verifyTransactionSignatures(
  data: TransactionData,
  registrations: SignerRegistrations = {},
): boolean {
  try {
    return checkSignatures(data, registrations);
  } catch (error) {
    // Data that cannot be serialized has no bytes anyone could have signed.
    if (isUnserializable(error)) return false;
    throw error;
  }
}

function isUnserializable(error: unknown): boolean {
  return error instanceof TransactionError || error instanceof IdentityError;
}

function checkSignatures(data: TransactionData, registrations: SignerRegistrations): boolean {
  const isRegistration =
    data.typeGroup === 1 && data.type === TransactionType.MultiSignature && data.version === 2;
  const multiSignature = isRegistration ? data.asset?.multiSignature : registrations.multiSignature;
  if (multiSignature !== undefined) {
    if (!verifyParticipants(data, multiSignature)) return false;
  }
  const senderMustSign = multiSignature === undefined || isRegistration;
  if (senderMustSign || data.signature !== undefined) {
    if (data.signature === undefined) return false;
    const hash = transactionHash(data, SENDER_HASH);
    if (!verifyHex(hash, data.signature, data.senderPublicKey)) return false;
  }
  if (registrations.secondPublicKey === undefined) return data.secondSignature === undefined;
  if (data.secondSignature === undefined) return false;
  const secondHash = transactionHash(data, { excludeSecondSignature: true });
  return verifyHex(secondHash, data.secondSignature, registrations.secondPublicKey);
}

/** ARK 3.0's participant check: distinct indexes; stops once `min` signatures are valid. */
function verifyParticipants(
  data: TransactionData,
  { min, publicKeys }: NonNullable<SignerRegistrations['multiSignature']>,
): boolean {
  const signatures = data.signatures ?? [];
  const hash = transactionHash(data, PARTICIPANT_HASH);
  const seen = new Set<number>();
  let valid = 0;
  for (let i = 0; i < signatures.length; i++) {
    const signature = signatures[i] as string;
    const index = Number.parseInt(signature.slice(0, 2), 16);
    if (seen.has(index)) return false;
    seen.add(index);
    const publicKey = publicKeys[index];
    if (publicKey !== undefined && verifyHex(hash, signature.slice(2, 130), publicKey)) valid++;
    if (valid === min) return true;
    if (signatures.length - (i + 1 - valid) < min) return false;
  }
  return false;
}

function verifyHex(hash: Buffer, signature: string, publicKey: string): boolean {
  const sig = Buffer.from(signature, 'hex');
  const key = Buffer.from(publicKey, 'hex');
  return signature.length === SCHNORR_HEX
    ? verifySchnorr(hash, sig, key)
    : verifyEcdsa(hash, sig, key);
}

/**
 * The signature checks of a transaction as items for the VerificationPool's batch path: if all
 * are valid, so is the transaction. If any fails, ask verifyTransactionSignatures for the
 * verdict (a multisignature may pass with some invalid participant signatures, as in ARK).
 */
export function transactionVerificationItems(
  data: TransactionData,
  registrations: SignerRegistrations = {},
): VerificationItem[] {
  try {
    return itemsOf(data, registrations);
  } catch (error) {
    if (isUnserializable(error)) return [MISSING];
    throw error;
  }
}

function itemsOf(data: TransactionData, registrations: SignerRegistrations): VerificationItem[] {
  const items: VerificationItem[] = [];
  const kind = data.version === 1 ? 'ecdsa' : 'schnorr';
  const isRegistration =
    data.typeGroup === 1 && data.type === TransactionType.MultiSignature && data.version === 2;
  const multiSignature = isRegistration ? data.asset?.multiSignature : registrations.multiSignature;
  const senderMustSign = multiSignature === undefined || isRegistration;
  if (data.signature !== undefined) {
    items.push(
      item(kind, transactionHash(data, SENDER_HASH), data.signature, data.senderPublicKey),
    );
  } else if (senderMustSign) {
    items.push(MISSING);
  }
  const { secondPublicKey } = registrations;
  if (data.secondSignature !== undefined && secondPublicKey !== undefined) {
    const hash = transactionHash(data, { excludeSecondSignature: true });
    items.push(item(kind, hash, data.secondSignature, secondPublicKey));
  } else if (data.secondSignature !== undefined || secondPublicKey !== undefined) {
    items.push(MISSING);
  }
  if (multiSignature !== undefined) {
    const signatures = data.signatures ?? [];
    if (signatures.length < multiSignature.min) items.push(MISSING);
    const hash = transactionHash(data, PARTICIPANT_HASH);
    const seen = new Set<number>();
    for (const signature of signatures) {
      const index = Number.parseInt(signature.slice(0, 2), 16);
      // A participant counted twice makes the transaction invalid, as in ARK.
      if (seen.has(index)) items.push(MISSING);
      seen.add(index);
      items.push(item('schnorr', hash, signature.slice(2), multiSignature.publicKeys[index] ?? ''));
    }
  }
  return items;
}

/** An item that never verifies: stands for a signature that is required but absent. */
const MISSING: VerificationItem = {
  kind: 'schnorr',
  hash: Buffer.alloc(32),
  signature: Buffer.alloc(0),
  publicKey: Buffer.alloc(0),
};

function item(
  kind: VerificationItem['kind'],
  hash: Buffer,
  signature: string,
  publicKey: string,
): VerificationItem {
  return {
    kind,
    hash,
    signature: Buffer.from(signature, 'hex'),
    publicKey: Buffer.from(publicKey, 'hex'),
  };
}
