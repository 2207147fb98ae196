import { TransactionError } from './transaction-error.js';

const HEX = /^[0-9a-fA-F]*$/;
const U64_MAX = 2n ** 64n - 1n;

function checkInteger(value: number, max: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new TransactionError(field, `expected an integer from 0 to ${max}, got ${String(value)}`);
  }
}

/** Appends little-endian fields to a buffer that grows as needed. */
export class ByteWriter {
  #buffer: Buffer;
  #offset = 0;

  constructor(initialSize = 512) {
    this.#buffer = Buffer.allocUnsafe(initialSize);
  }

  u8(value: number, field: string): void {
    checkInteger(value, 0xff, field);
    this.#ensure(1);
    this.#buffer[this.#offset++] = value;
  }

  u16(value: number, field: string): void {
    checkInteger(value, 0xffff, field);
    this.#ensure(2);
    this.#offset = this.#buffer.writeUInt16LE(value, this.#offset);
  }

  u32(value: number, field: string): void {
    checkInteger(value, 0xffff_ffff, field);
    this.#ensure(4);
    this.#offset = this.#buffer.writeUInt32LE(value, this.#offset);
  }

  u64(value: bigint, field: string): void {
    if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) {
      throw new TransactionError(field, `expected a bigint from 0 to ${U64_MAX}`);
    }
    this.#ensure(8);
    this.#offset = this.#buffer.writeBigUInt64LE(value, this.#offset);
  }

  bytes(value: Uint8Array): void {
    this.#ensure(value.length);
    this.#buffer.set(value, this.#offset);
    this.#offset += value.length;
  }

  /** Writes hex text of exactly `length` bytes; anything else is a TransactionError. */
  hex(value: string | undefined, length: number, field: string): void {
    if (typeof value !== 'string' || value.length !== length * 2 || !HEX.test(value)) {
      throw new TransactionError(field, `expected ${length} bytes of hex`);
    }
    this.#ensure(length);
    this.#offset += this.#buffer.write(value, this.#offset, 'hex');
  }

  zeros(count: number): void {
    this.#ensure(count);
    this.#buffer.fill(0, this.#offset, this.#offset + count);
    this.#offset += count;
  }

  /** A copy of what was written. */
  result(): Buffer {
    return Buffer.from(this.#buffer.subarray(0, this.#offset));
  }

  #ensure(length: number): void {
    if (this.#offset + length <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#offset + length));
    this.#buffer.copy(grown, 0, 0, this.#offset);
    this.#buffer = grown;
  }
}
