import { asValue } from 'awilix';
/**
 * API benchmark of the transaction index endpoints: API_BENCH_TRANSACTIONS (default 1,000,000)
 * transfers stored in PostgreSQL by the database plugin, then `/transactions?address=A,B` and
 * `/transactions?type=0&orderBy=amount:desc` under 50 concurrent connections (autocannon),
 * beside a route answering a constant. Run: npx tsx packages/api/bench/transactions.ts
 *
 * Signatures are random bytes: the API reads them back but never verifies them, and signing a
 * million transactions would only make the set-up slow.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  addressFromPublicKey,
  forgeBlock,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionId,
  transfer,
  type BlockData,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import { WalletRepository } from '@lni/state';
// The state plugin's own storage adapter, from source (bench only), to store blocks as a node does.
import { DatabaseBlockStore } from '../../state/src/blocks/database-block-store.js';
import { apiPlugin } from '../src/index.js';
import { benchLedger } from './ledger.js';
import { cachedPerBlock } from '../src/routes/index.js';
import { transactionRoutes } from '../src/routes/transactions.js';
import { loadRoutes } from './load.js';
import { createTestDatabase } from '../../../test/support/postgres.js';

const TRANSACTIONS = Number(process.env.API_BENCH_TRANSACTIONS ?? 1_000_000);
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const SENDERS = 1_000;
const RECIPIENTS = 100_000;

const config = loadNetworkConfig(join(import.meta.dirname, '../../cli/networks/testnet/crypto'));
const milestones = new Milestones(config.milestones);
const milestone = milestones.at(2);
const { pubKeyHash } = config.network;
const senders = Array.from({ length: SENDERS }, (_, i) => keysFromPassphrase(`api sender ${i}`));
const recipients = Array.from({ length: RECIPIENTS }, (_, i) =>
  addressFromPublicKey(keysFromPassphrase(`api recipient ${i}`).publicKey, pubKeyHash),
);
const wallets = new WalletRepository();
wallets.load(
  senders.map((keys) => ({
    address: addressFromPublicKey(keys.publicKey, pubKeyHash),
    publicKey: keys.publicKey.toString('hex'),
    balance: 10n ** 15n,
  })),
);
let height = 1;
let cached = false;
const ledger = benchLedger(wallets, {
  // Undefined turns the response cache off (see the two passes below).
  tip: () => (cached ? `block ${height}` : undefined),
  chainContext: () => ({
    height,
    epochStart: milestone.epoch,
    addressOf: (key) => addressFromPublicKey(key, pubKeyHash),
  }),
});

const database = await createTestDatabase();
const routes: Plugin<object> = {
  name: 'bench-routes',
  dependsOn: { required: ['api', 'database'] },
  register: ({ container }) => {
    // Where the API plugin reads the chain tip, as the state plugin registers it.
    container.register({ apiLedger: asValue(ledger) });
    container.cradle.apiRoutes.add(
      ...cachedPerBlock(
        transactionRoutes({
          ledger: () => ledger,
          transactions: () => container.cradle.transactionQuery,
        }),
      ),
      { method: 'GET', path: '/api/constant', handler: () => ({ data: { ok: true } }) },
    );
  },
};
const kernel = await startTestKernel({
  plugins: [
    { plugin: databasePlugin as Plugin<object>, options: { connection: database.connection } },
    { plugin: routes },
    {
      plugin: apiPlugin as Plugin<object>,
      options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
    },
  ],
  printLevel: 'fatal',
});

try {
  const store = new DatabaseBlockStore({
    database: kernel.cradle.database,
    blockStorage: kernel.cradle.blockStorage,
  });
  const nonces = new Array<bigint>(SENDERS).fill(0n);
  const generator = keysFromPassphrase('api bench generator');
  let previous: BlockData<TransactionData> | undefined;
  const started = performance.now();
  for (let made = 0; made < TRANSACTIONS;) {
    const count = Math.min(milestone.block.maxTransactions, TRANSACTIONS - made);
    const transactions = Array.from({ length: count }, (_, i) => {
      const n = made + i;
      const sender = n % SENDERS;
      nonces[sender] = (nonces[sender] as bigint) + 1n;
      const data = transfer({ network: pubKeyHash, milestone })
        .recipientId(recipients[(n * 31) % RECIPIENTS] as string)
        .amount(1 + ((n * 7919) % 1_000_000))
        .nonce(nonces[sender] as bigint)
        .senderPublicKey((senders[sender] as { publicKey: Buffer }).publicKey.toString('hex'))
        .build();
      const signed = { ...data, signature: randomBytes(64).toString('hex') };
      return { ...signed, id: transactionId(signed) };
    });
    const block = forgeBlock({
      transactions,
      ...(previous && { previousBlock: previous }),
      timestamp: height * 8,
      keys: generator,
      milestones,
    });
    await store.save(block);
    previous = block;
    height = block.height;
    made += count;
  }
  // What the running node's refresher does within a minute of such growth.
  await kernel.cradle.statisticsRefresher.check();
  console.log(
    `${TRANSACTIONS} transfers stored in ${height} blocks ` +
      `(${((performance.now() - started) / 1000).toFixed(0)} s); ` +
      `${CONNECTIONS} connections, ${SECONDS} s each`,
  );

  const uri = kernel.cradle.apiServer.server.info.uri;
  const [a, b] = [senders[3], senders[500]].map((keys) =>
    addressFromPublicKey((keys as { publicKey: Buffer }).publicKey, pubKeyHash),
  );
  const cases: [string, string][] = [
    ['constant', '/api/constant'],
    ['transactions?address=A,B', `/api/transactions?address=${a},${b}`],
    ['transactions type=0 by amount', '/api/transactions?type=0&orderBy=amount:desc'],
    ['transactions?address=A,B limit 10', `/api/transactions?address=${a},${b}&limit=10`],
  ];
  console.log('every request computed (response cache off):');
  await loadRoutes(uri, cases, { connections: CONNECTIONS, seconds: SECONDS, nameWidth: 36 });
  cached = true;
  console.log('repeated requests at one chain tip (response cache on, as a node runs):');
  await loadRoutes(uri, cases, { connections: CONNECTIONS, seconds: SECONDS, nameWidth: 36 });
} finally {
  await kernel.stop();
  // API_BENCH_KEEP_DATABASE=1 keeps the data for EXPLAIN and friends.
  if (process.env.API_BENCH_KEEP_DATABASE === '1') {
    console.log(`kept database ${database.connection.database}`);
  } else {
    await database.drop();
  }
}
