// Run in a child process against the built package; prints what the fallback test checks.
const crypto = await import(process.argv[2]);
const keys = crypto.keysFromPassphrase('fallback');
const hash = crypto.sha256(Buffer.from('message'));
const schnorr = crypto.signSchnorr(hash, keys.privateKey);
const ecdsa = crypto.signEcdsa(hash, keys.privateKey);
// Importing twice and using every function must still warn only once.
await import(process.argv[2]);
console.log(
  JSON.stringify({
    backend: crypto.cryptoBackend(),
    schnorr: schnorr.toString('hex'),
    ecdsa: ecdsa.toString('hex'),
    verified:
      crypto.verifySchnorr(hash, schnorr, keys.publicKey) &&
      crypto.verifyEcdsa(hash, ecdsa, keys.publicKey),
    multisig: crypto.multiSignaturePublicKey(1, [keys.publicKey.toString('hex')]),
  }),
);
