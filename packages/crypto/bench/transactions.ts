import { fileURLToPath } from 'node:url';
import {
  deserializeTransaction,
  multiPayment,
  serializeTransaction,
  transactionId,
  transactionVerificationItems,
  transfer,
  verifyAll,
  verifyTransactionSignatures,
  type TransactionData,
} from '../src/index.js';
import { formatTable, latency, throughput, type BenchRow } from './measure.js';

const recipient = 'D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax';
const options = { network: 30 };

/** `count` signed v2 transfers from different senders, as a block would carry them. */
function signedTransfers(count: number): TransactionData[] {
  return Array.from({ length: count }, (_, i) =>
    transfer(options)
      .recipientId(recipient)
      .amount(1_000 + i)
      .vendorField(`payment ${i}`)
      .nonce(i + 1)
      .sign(`bench sender ${i}`)
      .build(),
  );
}

/**
 * Ops per second of this process's own CPU time: other processes on a busy machine stretch the
 * wall clock, not the CPU time one core spends, which is what the targets are about.
 */
function perCpuSecond(run: () => void, ms: number): number {
  for (let i = 0; i < 2_000; i++) run();
  const before = process.cpuUsage();
  const start = performance.now();
  let calls = 0;
  while (performance.now() - start < ms) {
    run();
    calls++;
  }
  const used = process.cpuUsage(before);
  return (calls * 1e6) / (used.user + used.system);
}

const cpuNote = (ops: number, target?: string): string =>
  `${Math.round(ops).toLocaleString('en-US')}/s of CPU time${target === undefined ? '' : `; ${target}`}`;

/** Transaction serialization, deserialization and signature verification on this thread. */
export async function benchTransactions(ms = 1500): Promise<BenchRow[]> {
  const transfers = signedTransfers(256);
  const bytes = transfers.map((data) => serializeTransaction(data));
  const payments = multiPayment(options).nonce(1);
  for (let i = 0; i < 64; i++) payments.addPayment(recipient, i + 1);
  const paymentBytes = serializeTransaction(payments.sign('bench').build());
  let next = 0;
  const pick = <T>(list: readonly T[]): T => list[next++ & 255] as T;

  const rows: BenchRow[] = [
    {
      name: 'tx serialize (transfer v2)',
      opsPerSecond: throughput(() => serializeTransaction(pick(transfers)), 1, ms),
      note: cpuNote(perCpuSecond(() => serializeTransaction(pick(transfers)), ms)),
    },
    {
      name: 'tx deserialize (transfer v2)',
      opsPerSecond: throughput(() => deserializeTransaction(pick(bytes)), 1, ms),
      note: cpuNote(
        perCpuSecond(() => deserializeTransaction(pick(bytes)), ms),
        'target >= 100,000/s, id included',
      ),
    },
    {
      name: 'tx deserialize (multiPayment x64)',
      opsPerSecond: throughput(() => deserializeTransaction(paymentBytes), 1, ms),
    },
    {
      name: 'tx id (sha256 of serialization)',
      opsPerSecond: throughput(() => transactionId(pick(transfers)), 1, ms),
    },
    {
      name: 'tx Schnorr verify (single)',
      opsPerSecond: throughput(() => verifyTransactionSignatures(pick(transfers)), 1, ms),
      note: cpuNote(perCpuSecond(() => verifyTransactionSignatures(pick(transfers)), ms)),
    },
    {
      name: 'tx Schnorr verify (batch of 150)',
      opsPerSecond: throughput(
        () =>
          verifyAll(transfers.slice(0, 150).flatMap((data) => transactionVerificationItems(data))),
        150,
        ms,
      ),
      note: 'items + one batch check',
    },
    {
      name: 'tx deserialize + verify latency',
      ...(await latency(
        () => verifyTransactionSignatures(deserializeTransaction(pick(bytes))),
        2000,
      )),
    },
  ];
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchTransactions();
  const memory = process.memoryUsage();
  process.stdout.write(
    `${formatTable(rows)}\n\nrss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ` +
      `${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB\n`,
  );
}
