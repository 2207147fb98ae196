import { SignatureError } from './signature-error.js';
import { secp256k1 } from './backend.js';

/** bcrypto asserts Buffer.isBuffer, so views of other byte arrays are rewrapped without copying. */
export function asBuffer(value: unknown): Buffer | undefined {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.length);
  return undefined;
}

export function signingInputs(hash: unknown, privateKey: unknown): [Buffer, Buffer] {
  const message = asBuffer(hash);
  if (message?.length !== 32) {
    throw new SignatureError(`hash: expected 32 bytes, got ${describe(hash)}`);
  }
  const key = asBuffer(privateKey);
  if (key?.length !== 32 || !secp256k1.privateKeyVerify(key)) {
    throw new SignatureError(
      `privateKey: expected 32 bytes in [1, n-1] of secp256k1, got ${describe(privateKey)}`,
    );
  }
  return [message, key];
}

function describe(value: unknown): string {
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  return typeof value;
}
