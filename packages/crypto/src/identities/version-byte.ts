import { IdentityError } from './identity-error.js';

/** Network version bytes (pubKeyHash, wif) must fit in one byte. */
export function assertByte(value: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 255) {
    throw new IdentityError(
      field === 'network.wif' ? 'ERR_INVALID_WIF' : 'ERR_INVALID_ADDRESS',
      `${field}: expected an integer from 0 to 255, got ${String(value)}`,
    );
  }
}
