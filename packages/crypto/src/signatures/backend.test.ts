import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { keysFromPassphrase } from '../identities/keys.js';
import { sha256 } from '../hashing/hash.js';
import { cryptoBackend, loadBackend, requireJs, requireNative } from './backend.js';
import { signEcdsa, signSchnorr } from './index.js';

const builtIndex = new URL('../../dist/index.js', import.meta.url);
const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

function runChild(nodeArgs: string[], env: NodeJS.ProcessEnv = {}) {
  const result = execFileSync(
    process.execPath,
    [...nodeArgs, fixture('sign-and-verify.mjs'), builtIndex.href],
    { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(result) as Record<string, unknown>;
}

function runChildWithStderr(nodeArgs: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(
    process.execPath,
    [...nodeArgs, fixture('sign-and-verify.mjs'), builtIndex.href],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
}

describe('secp256k1 backend', () => {
  it('uses the native bcrypto addon on this machine', () => {
    expect(cryptoBackend()).toBe('native');
  });

  it('falls back to JS when the native loader throws, warning once with the reason', () => {
    const warnings: string[] = [];
    const loaded = loadBackend({
      loadNative: () => {
        throw new Error('addon missing');
      },
      warn: (message) => warnings.push(message),
    });
    expect(loaded.kind).toBe('js');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('addon missing');
  });

  it('produces the same signatures and keys with the JS backend as with native', () => {
    const js = requireJs();
    const native = requireNative();
    const keys = keysFromPassphrase('backend parity');
    for (let i = 0; i < 20; i++) {
      const hash = sha256(Buffer.from(`message ${i}`));
      expect(js.schnorrSign(hash, keys.privateKey)).toEqual(signSchnorr(hash, keys.privateKey));
      expect(js.signatureExport(js.sign(hash, keys.privateKey))).toEqual(
        signEcdsa(hash, keys.privateKey),
      );
      expect(
        js.schnorrVerify(hash, native.schnorrSign(hash, keys.privateKey), keys.publicKey),
      ).toBe(true);
    }
    expect(js.publicKeyCreate(keys.privateKey, true)).toEqual(keys.publicKey);
  });
});

describe.skipIf(!existsSync(builtIndex))(
  'fallback in a real process (needs the built dist/)',
  () => {
    let native: Record<string, unknown>;
    beforeAll(() => {
      native = runChild([]);
    });

    it('reports native and signs when the addon loads', () => {
      expect(native.backend).toBe('native');
      expect(native.verified).toBe(true);
    });

    it('runs on pure JS, same results, one warning, when no native addon can load', () => {
      const child = runChildWithStderr(['--require', fixture('no-native-addon.cjs')]);
      expect(child.status).toBe(0);
      const output = JSON.parse(child.stdout) as Record<string, unknown>;
      expect(output).toEqual({ ...native, backend: 'js' });
      const warnings = child.stderr.match(/LNI_CRYPTO_BACKEND/g) ?? [];
      expect(warnings).toHaveLength(1);
      expect(child.stderr).toContain('simulated: native addon cannot load');
    });

    it('switches to JS on LNI_CRYPTO_BACKEND=js', () => {
      expect(runChild([], { LNI_CRYPTO_BACKEND: 'js' })).toEqual({ ...native, backend: 'js' });
    });
  },
);
