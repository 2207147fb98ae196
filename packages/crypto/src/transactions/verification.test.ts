import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { keysFromPassphrase } from '../identities/keys.js';
import { verifyAll, verifyItem } from '../verification/verification-item.js';
import { VerificationPool } from '../verification/verification-pool.js';
import { defaultWorkerUrl } from '../verification/worker-location.js';
import {
  multiSignature,
  transactionVerificationItems,
  transfer,
  verifyTransactionSignatures,
  type SignerRegistrations,
  type TransactionData,
} from './index.js';

const options = { network: 30 };
const recipient = 'D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax';
const key = (p: string) => keysFromPassphrase(p).publicKey.toString('hex');
const base = () => transfer(options).recipientId(recipient).amount(10).nonce(3);

/** The single-item path and the batch path must agree on a valid transaction. */
function bothPaths(data: TransactionData, registrations: SignerRegistrations = {}): boolean {
  const single = verifyTransactionSignatures(data, registrations);
  const batch = verifyAll(transactionVerificationItems(data, registrations));
  if (batch) expect(single).toBe(true);
  return single;
}

describe('verifyTransactionSignatures', () => {
  it('accepts the sender signature and rejects any change to the signed fields', () => {
    const data = base().sign('sender').build();
    expect(bothPaths(data)).toBe(true);
    expect(bothPaths({ ...data, amount: 11n })).toBe(false);
    expect(bothPaths({ ...data, senderPublicKey: key('other') })).toBe(false);
    const { signature: _signature, ...unsigned } = data;
    expect(bothPaths(unsigned)).toBe(false);
    // Data with no bytes to sign (a DER signature on v2, a broken address) is simply invalid.
    expect(bothPaths({ ...data, signature: '3006020101020101' })).toBe(false);
    expect(bothPaths({ ...data, recipientId: 'not-an-address' })).toBe(false);
  });

  it('needs the second signature exactly when the wallet has a second key', () => {
    const second = base().sign('sender').secondSign('second').build();
    const registrations = { secondPublicKey: key('second') };
    expect(bothPaths(second, registrations)).toBe(true);
    expect(bothPaths(second, { secondPublicKey: key('wrong') })).toBe(false);
    expect(bothPaths(second)).toBe(false);
    expect(bothPaths(base().sign('sender').build(), registrations)).toBe(false);
  });

  it("the second signature covers the sender's signature", () => {
    const second = base().sign('sender').secondSign('second').build();
    const resigned = base().sign('sender').build();
    // Same fields, but a second signature made over a different sender signature fails.
    const forged = {
      ...resigned,
      signature: second.signature,
      secondSignature: second.secondSignature,
    };
    expect(forged.signature).toBe(resigned.signature);
    const altered = base().nonce(4).sign('sender').secondSign('second').build();
    expect(
      bothPaths(
        { ...second, secondSignature: altered.secondSignature },
        { secondPublicKey: key('second') },
      ),
    ).toBe(false);
  });

  it('a multisignature wallet needs min valid participant signatures', () => {
    const publicKeys = [key('a'), key('b'), key('c')];
    const wallet = { multiSignature: { min: 2, publicKeys } };
    const twoOfThree = base()
      .senderPublicKey(key('wallet'))
      .multiSign('a', 0)
      .multiSign('c', 2)
      .build();
    expect(bothPaths(twoOfThree, wallet)).toBe(true);
    const one = base().senderPublicKey(key('wallet')).multiSign('a', 0).build();
    expect(bothPaths(one, wallet)).toBe(false);
    const wrongIndex = base()
      .senderPublicKey(key('wallet'))
      .multiSign('a', 1)
      .multiSign('c', 2)
      .build();
    expect(bothPaths(wrongIndex, wallet)).toBe(false);
    const twice = {
      ...twoOfThree,
      signatures: [twoOfThree.signatures![0]!, twoOfThree.signatures![0]!],
    };
    expect(bothPaths(twice, wallet)).toBe(false);
  });

  it('a multisignature registration needs the sender and the participants of its asset', () => {
    const publicKeys = [key('a'), key('b')];
    const builder = () =>
      multiSignature(options)
        .multiSignatureAsset({ min: 2, publicKeys })
        .senderPublicKey(key('a'))
        .nonce(1);
    const complete = builder().multiSign('a', 0).multiSign('b', 1).sign('a').build();
    expect(bothPaths(complete)).toBe(true);
    // The sender signed over the participants' signatures: dropping one breaks it.
    expect(bothPaths({ ...complete, signatures: complete.signatures!.slice(0, 1) })).toBe(false);
    const { signature: _s, ...withoutSender } = complete;
    expect(bothPaths(withoutSender)).toBe(false);
  });
});

describe('transactionVerificationItems on the worker pool', () => {
  let pool: VerificationPool | undefined;
  afterAll(async () => {
    await pool?.close();
  });

  it('flags exactly the tampered transaction, as the single check does', async () => {
    pool = new VerificationPool({ size: 2, minChunk: 4 });
    const signed = Array.from({ length: 12 }, (_, i) =>
      base()
        .nonce(i + 1)
        .sign(`sender ${i}`)
        .build(),
    );
    const batch = signed.map((data, i) => (i === 7 ? { ...data, amount: 999n } : data));
    const items = batch.flatMap((data) => transactionVerificationItems(data));
    const results = await pool.verify(items);
    expect(results).toEqual(items.map((item) => verifyItem(item)));
    expect(results.map((ok, i) => ok || i)).toEqual(results.map((_, i) => (i === 7 ? 7 : true)));
    expect(await pool.verifyBatch(items)).toBe(false);
    expect(batch.map((data) => verifyTransactionSignatures(data))).toEqual(results);
  });

  it('starts its threads with the first verification, not when it is made', async () => {
    // A node whose start fails before it verifies anything must not exit while a thread is
    // loading the native addon (that aborts).
    const worker = announcingWorker('started');
    const lazy = new VerificationPool({ size: 2, workerUrl: worker.url });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(worker.count).toBe(0);
      const items = transactionVerificationItems(base().sign('lazy pool').build());
      expect(await lazy.verify(items)).toEqual([true]);
      await expect.poll(() => worker.count).toBe(2);
    } finally {
      await lazy.close();
      worker.dispose();
    }
  });

  it('stops a thread only once it has loaded the native addon (stopped inside it, the process aborts)', async () => {
    // Workers that wait 200 ms before loading: a pool closed as its first verification
    // starts them finds them still loading.
    const worker = announcingWorker('loaded', 200);
    const pool = new VerificationPool({ size: 2, workerUrl: worker.url });
    try {
      const items = transactionVerificationItems(base().sign('closing pool').build());
      const refused = expect(pool.verify(items)).rejects.toThrow('verification pool closed');
      await pool.close();
      await refused;
      // Both threads loaded before they stopped (the message may trail the thread).
      await expect.poll(() => worker.count).toBe(2);
    } finally {
      await pool.close();
      worker.dispose();
    }
  });
});

/**
 * The real verification worker behind a module that, after `delayMs`, says on a broadcast
 * channel when it has `started` (before loading the worker) or `loaded` it; `count` is how
 * many threads have said so.
 */
function announcingWorker(moment: 'started' | 'loaded', delayMs = 0) {
  const directory = mkdtempSync(join(tmpdir(), 'lni-pool-'));
  const file = join(directory, `${moment}-worker.mjs`);
  const real = defaultWorkerUrl(
    new URL('../verification/verification-pool.ts', import.meta.url).href,
  );
  const name = `lni-pool-${moment}`;
  const announce =
    `const channel = new BroadcastChannel(${JSON.stringify(name)});\n` +
    `channel.postMessage(${JSON.stringify(moment)});\n` +
    // An open channel would keep the thread alive once the pool asks it to stop.
    `channel.close();\n`;
  const load = `await import(${JSON.stringify(real.href)});\n`;
  writeFileSync(
    file,
    `await new Promise((resolve) => setTimeout(resolve, ${delayMs}));\n` +
      (moment === 'started' ? announce + load : load + announce),
  );
  const channel = new BroadcastChannel(name);
  const worker = {
    url: pathToFileURL(file),
    count: 0,
    dispose() {
      channel.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  channel.onmessage = () => {
    worker.count += 1;
  };
  return worker;
}
