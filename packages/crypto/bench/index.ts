import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cryptoBackend } from '../src/index.js';
import { benchBlocks } from './blocks.js';
import { formatTable, type BenchRow } from './measure.js';
import { benchPool } from './pool.js';
import { benchSignatures } from './signatures.js';

// `npm run bench` (after `npm run build`: the pool's workers run the compiled dist/).
const rows: BenchRow[] = [];
const started = performance.now();

rows.push(...benchSignatures());
rows.push(...benchJsBackend());
rows.push(...(await benchPool()));
rows.push(...(await benchBlocks()));
rows.push(...(await benchTransactionsIfPresent()));

const memory = process.memoryUsage();
process.stdout.write(
  `\n@lni/crypto benchmark — node ${process.version}, backend ${cryptoBackend()}\n\n` +
    `${formatTable(rows)}\n\n` +
    `rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB, ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

/** The pure-JS fallback, measured in a child process started with LNI_CRYPTO_BACKEND=js. */
function benchJsBackend(): BenchRow[] {
  const script = fileURLToPath(new URL('./signatures-js.ts', import.meta.url));
  const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, LNI_CRYPTO_BACKEND: 'js', NODE_NO_WARNINGS: '1' },
    encoding: 'utf8',
  });
  if (child.status !== 0) {
    return [{ name: 'JS fallback', note: `failed: ${child.stderr.trim().split('\n')[0] ?? ''}` }];
  }
  return JSON.parse(child.stdout) as BenchRow[];
}

/** The transaction figures of bench/transactions.ts (helper "tx"), once that file exists. */
async function benchTransactionsIfPresent(): Promise<BenchRow[]> {
  const file = new URL('./transactions.ts', import.meta.url);
  if (!existsSync(file))
    return [{ name: 'transactions', note: 'bench/transactions.ts not present yet' }];
  const specifier = './transactions.js';
  const module = (await import(specifier)) as {
    benchTransactions: () => Promise<BenchRow[]> | BenchRow[];
  };
  return module.benchTransactions();
}
