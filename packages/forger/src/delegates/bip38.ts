import {
  decodeBase58Check,
  encodeBase58Check,
  hash160,
  hash256,
  keysFromPrivateKey,
} from '@lni/crypto';
import { createCipheriv, createDecipheriv, scrypt } from 'node:crypto';
import { promisify } from 'node:util';

// BIP38 without EC multiplication, as ARK's `config:forger:bip38` writes delegates.json.
// Written on node:crypto because the npm `bip38` package runs scrypt in pure JavaScript
// (seconds per decryption) and pulls in a dozen unmaintained dependencies.

const PREFIX = [0x01, 0x42];
const FLAG_COMPRESSED = 0xe0;
const FLAG_UNCOMPRESSED = 0xc0;
const SCRYPT = { N: 16384, r: 8, p: 8, maxmem: 64 * 1024 * 1024 };
const scryptAsync = promisify(scrypt) as (
  password: Buffer,
  salt: Buffer,
  length: number,
  options: typeof SCRYPT,
) => Promise<Buffer>;

export class Bip38Error extends Error {
  override readonly name = 'Bip38Error';
}

/** The bitcoin-style address BIP38 checks the password against (version byte 0x00). */
function addressHash(privateKey: Buffer): Buffer {
  const { publicKey } = keysFromPrivateKey(privateKey);
  const address = encodeBase58Check(Buffer.concat([Buffer.from([0]), hash160(publicKey)]));
  return hash256(Buffer.from(address, 'ascii')).subarray(0, 4);
}

async function derive(password: string, salt: Buffer): Promise<{ half1: Buffer; half2: Buffer }> {
  const derived = await scryptAsync(
    Buffer.from(password.normalize('NFC'), 'utf8'),
    salt,
    64,
    SCRYPT,
  );
  return { half1: derived.subarray(0, 32), half2: derived.subarray(32, 64) };
}

function aes(mode: 'encrypt' | 'decrypt', key: Buffer, block: Buffer): Buffer {
  const cipher =
    mode === 'encrypt'
      ? createCipheriv('aes-256-ecb', key, null)
      : createDecipheriv('aes-256-ecb', key, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

const xor = (a: Buffer, b: Buffer): Buffer => Buffer.from(a.map((byte, i) => byte ^ (b[i] ?? 0)));

/** Encrypts a private key with a password (compressed public key, as ARK uses). */
export async function encryptBip38(privateKey: Buffer, password: string): Promise<string> {
  const salt = addressHash(privateKey);
  const { half1, half2 } = await derive(password, salt);
  const encrypted1 = aes('encrypt', half2, xor(privateKey.subarray(0, 16), half1.subarray(0, 16)));
  const encrypted2 = aes(
    'encrypt',
    half2,
    xor(privateKey.subarray(16, 32), half1.subarray(16, 32)),
  );
  return encodeBase58Check(
    Buffer.concat([Buffer.from([...PREFIX, FLAG_COMPRESSED]), salt, encrypted1, encrypted2]),
  );
}

/** Decrypts a BIP38 string to its private key; a wrong password is a Bip38Error. */
export async function decryptBip38(encrypted: string, password: string): Promise<Buffer> {
  let payload: Buffer;
  try {
    payload = decodeBase58Check(encrypted);
  } catch {
    throw new Bip38Error('not a BIP38 string (bad base58check encoding)');
  }
  if (payload.length !== 39 || payload[0] !== PREFIX[0] || payload[1] !== PREFIX[1]) {
    throw new Bip38Error('not a BIP38 string without EC multiplication (prefix 6P)');
  }
  if (payload[2] !== FLAG_COMPRESSED && payload[2] !== FLAG_UNCOMPRESSED) {
    throw new Bip38Error(`unsupported BIP38 flag byte 0x${payload[2]?.toString(16)}`);
  }
  if (payload[2] === FLAG_UNCOMPRESSED) {
    throw new Bip38Error('uncompressed BIP38 keys are not used by ARK networks');
  }
  const salt = payload.subarray(3, 7);
  const { half1, half2 } = await derive(password, salt);
  const privateKey = xor(
    Buffer.concat([
      aes('decrypt', half2, payload.subarray(7, 23)),
      aes('decrypt', half2, payload.subarray(23, 39)),
    ]),
    half1,
  );
  let matches = false;
  try {
    matches = addressHash(privateKey).equals(salt);
  } catch {
    // A wrong password can decrypt to a value outside the curve order: same answer.
  }
  if (!matches) throw new Bip38Error('wrong password for the BIP38 secret');
  return privateKey;
}
