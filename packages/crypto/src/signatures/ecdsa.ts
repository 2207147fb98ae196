import { secp256k1 } from './backend.js';
import { asBuffer, signingInputs } from './inputs.js';

/** Signs a 32-byte hash with deterministic (RFC 6979) low-S ECDSA; returns the DER encoding. */
export function signEcdsa(hash: Buffer, privateKey: Buffer): Buffer {
  const [message, key] = signingInputs(hash, privateKey);
  return secp256k1.signatureExport(secp256k1.sign(message, key));
}

/**
 * Whether `signature` (DER) is a valid ECDSA signature of `hash` by `publicKey`, accepting
 * exactly what ARK 3.0's Hash.verifyECDSA accepts: strict DER and low S only. Never throws.
 */
export function verifyEcdsa(hash: Buffer, signature: Buffer, publicKey: Buffer): boolean {
  const message = asBuffer(hash);
  const der = asBuffer(signature);
  const key = asBuffer(publicKey);
  if (message === undefined || der === undefined || key === undefined) return false;
  if (!isStrictDer(der)) return false;
  const compact = importDer(der);
  if (compact === undefined || !secp256k1.isLowS(compact)) return false;
  return secp256k1.verify(message, compact, key);
}

function importDer(der: Buffer): Buffer | undefined {
  try {
    return secp256k1.signatureImport(der);
  } catch {
    // bcrypto throws on DER it cannot parse; for a verifier that is simply an invalid signature.
    return undefined;
  }
}

/**
 * The layout checks ARK 3.0 makes after bcrypto's lax DER import: total and inner lengths
 * agree, short-form length, R and S positive and minimally encoded. Where ARK would read past
 * the end and throw, this returns false.
 */
function isStrictDer(der: Buffer): boolean {
  const totalLength = der[1];
  const rLength = der[3];
  if (totalLength === undefined || rLength === undefined) return false;
  const sLength = der[4 + rLength + 1];
  if (sLength === undefined) return false;
  if (der.length !== 4 + rLength + 2 + sLength) return false;
  if (totalLength !== 2 + rLength + 2 + sLength || totalLength > 127) return false;
  const rFirst = der[4];
  const sFirst = der[4 + rLength + 2];
  if (rFirst === undefined || sFirst === undefined) return false;
  if (rFirst > 0x7f || sFirst > 0x7f) return false;
  const rSecond = der[5];
  const sSecond = der[4 + rLength + 3];
  if (rFirst === 0 && (rSecond === undefined || rSecond < 0x80)) return false;
  if (sFirst === 0 && (sSecond === undefined || sSecond < 0x80)) return false;
  return true;
}
