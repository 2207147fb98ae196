import { createRequire } from 'node:module';

/** The part of bcrypto's secp256k1 module this package calls (bcrypto ships no types). */
export interface Secp256k1 {
  privateKeyVerify(key: Buffer): boolean;
  publicKeyCreate(key: Buffer, compress?: boolean): Buffer;
  publicKeyVerify(key: Buffer): boolean;
  publicKeyCombine(keys: Buffer[], compress?: boolean): Buffer;
  sign(msg: Buffer, key: Buffer): Buffer;
  verify(msg: Buffer, sig: Buffer, key: Buffer): boolean;
  signatureExport(sig: Buffer): Buffer;
  signatureImport(sig: Buffer): Buffer;
  isLowS(sig: Buffer): boolean;
  schnorrSign(msg: Buffer, key: Buffer): Buffer;
  schnorrVerify(msg: Buffer, sig: Buffer, key: Buffer): boolean;
  schnorrVerifyBatch(batch: [Buffer, Buffer, Buffer][]): boolean;
}

/** Which secp256k1 implementation is in use: bcrypto's native addon or its pure-JS code. */
export type CryptoBackend = 'native' | 'js';

export interface LoadedBackend {
  readonly kind: CryptoBackend;
  readonly secp256k1: Secp256k1;
}

export interface BackendOptions {
  /** Skip the native addon (the `LNI_CRYPTO_BACKEND=js` switch). */
  readonly forceJs?: boolean;
  readonly loadNative?: () => Secp256k1;
  readonly loadJs?: () => Secp256k1;
  readonly warn?: (message: string) => void;
}

const require = createRequire(import.meta.url);

export function requireNative(): Secp256k1 {
  return require('bcrypto/lib/native/secp256k1') as Secp256k1;
}

/**
 * bcrypto picks native or JS per module at require time from NODE_BACKEND, and the JS ECDSA
 * pulls in hash and DRBG modules through those selectors, which would reach for the missing
 * addon. So the switch is set only while the JS modules load. BCRYPTO_FORCE_BIGINT makes its
 * field arithmetic use BigInt, about 1.5x faster than its BN.js fallback.
 */
export function requireJs(): Secp256k1 {
  const saved = {
    NODE_BACKEND: process.env.NODE_BACKEND,
    BIGINT: process.env.BCRYPTO_FORCE_BIGINT,
  };
  process.env.NODE_BACKEND = 'js';
  process.env.BCRYPTO_FORCE_BIGINT = '1';
  try {
    return require('bcrypto/lib/js/secp256k1') as Secp256k1;
  } finally {
    restore('NODE_BACKEND', saved.NODE_BACKEND);
    restore('BCRYPTO_FORCE_BIGINT', saved.BIGINT);
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Loads the native backend, or the JS one (with a single warning) when native cannot load. */
export function loadBackend(options: BackendOptions = {}): LoadedBackend {
  const loadNative = options.loadNative ?? requireNative;
  const loadJs = options.loadJs ?? requireJs;
  const warn = options.warn ?? warnOnce;
  if (options.forceJs) {
    warn('@lni/crypto: LNI_CRYPTO_BACKEND=js, using the pure-JS secp256k1 backend (slow)');
    return { kind: 'js', secp256k1: loadJs() };
  }
  try {
    return { kind: 'native', secp256k1: loadNative() };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warn(`@lni/crypto: native secp256k1 unavailable (${reason}); using the pure-JS backend (slow)`);
    return { kind: 'js', secp256k1: loadJs() };
  }
}

let warned = false;

function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  process.emitWarning(message, { code: 'LNI_CRYPTO_BACKEND' });
}

const active = loadBackend({ forceJs: process.env.LNI_CRYPTO_BACKEND === 'js' });

/** The secp256k1 implementation every signature and key function of this package uses. */
export const secp256k1: Secp256k1 = active.secp256k1;

/** `'native'` normally; `'js'` when the native addon could not load (or was switched off). */
export function cryptoBackend(): CryptoBackend {
  return active.kind;
}
