import type { VerificationItem } from './verification-item.js';

// Items cross to a worker packed into one transferable ArrayBuffer instead of as objects of
// Buffers, which structured clone would copy one by one. Layout per item:
// kind u8 (0 invalid, 1 schnorr, 2 ecdsa) ‖ three u32 lengths ‖ hash ‖ signature ‖ public key.

const KIND_CODES = { schnorr: 1, ecdsa: 2 } as const;
const ITEM_HEADER = 13;

function fieldsOf(item: VerificationItem): [number, Uint8Array, Uint8Array, Uint8Array] {
  const kind: number = KIND_CODES[item?.kind as keyof typeof KIND_CODES] ?? 0;
  const { hash, signature, publicKey } = item ?? {};
  if (
    kind === 0 ||
    !(hash instanceof Uint8Array) ||
    !(signature instanceof Uint8Array) ||
    !(publicKey instanceof Uint8Array)
  ) {
    return [0, EMPTY, EMPTY, EMPTY];
  }
  return [kind, hash, signature, publicKey];
}

const EMPTY = new Uint8Array(0);

/** Packs `items[start, end)` into one buffer for a worker. */
export function packItems(
  items: readonly VerificationItem[],
  start: number,
  end: number,
): ArrayBuffer {
  let size = 4;
  const fields = [];
  for (let i = start; i < end; i++) {
    const entry = fieldsOf(items[i] as VerificationItem);
    fields.push(entry);
    size += ITEM_HEADER + entry[1].length + entry[2].length + entry[3].length;
  }
  const buffer = Buffer.allocUnsafeSlow(size);
  buffer.writeUInt32LE(fields.length, 0);
  let offset = 4;
  for (const [kind, hash, signature, publicKey] of fields) {
    buffer[offset] = kind;
    buffer.writeUInt32LE(hash.length, offset + 1);
    buffer.writeUInt32LE(signature.length, offset + 5);
    buffer.writeUInt32LE(publicKey.length, offset + 9);
    offset += ITEM_HEADER;
    for (const part of [hash, signature, publicKey]) {
      buffer.set(part, offset);
      offset += part.length;
    }
  }
  return buffer.buffer as ArrayBuffer;
}

/** The items of a packed buffer, as views into it (no copies). */
export function unpackItems(packed: ArrayBuffer): VerificationItem[] {
  const buffer = Buffer.from(packed);
  const count = buffer.readUInt32LE(0);
  const items: VerificationItem[] = [];
  let offset = 4;
  for (let i = 0; i < count; i++) {
    const kind = buffer[offset];
    const lengths = [1, 5, 9].map((at) => buffer.readUInt32LE(offset + at));
    offset += ITEM_HEADER;
    const [hash, signature, publicKey] = lengths.map((length) => {
      const part = buffer.subarray(offset, offset + length);
      offset += length;
      return part;
    }) as [Buffer, Buffer, Buffer];
    const name = kind === 1 ? 'schnorr' : kind === 2 ? 'ecdsa' : 'invalid';
    items.push({ kind: name as VerificationItem['kind'], hash, signature, publicKey });
  }
  return items;
}
