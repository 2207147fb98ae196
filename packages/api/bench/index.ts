import { asValue } from 'awilix';
/**
 * API benchmark: the wallet and delegate index endpoints over N generated wallets (env
 * API_BENCH_WALLETS, default 100,000) against a route answering a constant, under 50 concurrent
 * connections (autocannon). Prints requests/s and p50/p99 latency per route.
 * Run: npx tsx packages/api/bench/index.ts
 */
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import { WalletRepository } from '@lni/state';
import { apiPlugin } from '../src/index.js';
import { benchLedger } from './ledger.js';
import { benchPublicKey, seededWalletFields } from './seeded-wallets.js';
import { loadRoutes } from './load.js';
import { resourceJson } from '../src/resources/json-bytes.js';
import { delegateRoutes } from '../src/routes/delegates.js';
import { walletRoutes } from '../src/routes/wallets.js';
import { cachedPerBlock } from '../src/routes/index.js';

const WALLETS = Number(process.env.API_BENCH_WALLETS ?? 100_000);
const DELEGATES = 200;
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;

const addressOf = (n: number) => `A${n.toString(36).padStart(33, '0')}`;

const fieldsOf = seededWalletFields({ delegates: DELEGATES });
const wallets = new WalletRepository();
wallets.load(
  (function* () {
    for (let n = 0; n < WALLETS; n += 1) {
      yield { address: addressOf(n), publicKey: benchPublicKey(n), ...fieldsOf(n) };
    }
  })(),
);
let cached = false;
const ledger = benchLedger(wallets, {
  // Undefined turns the response cache off (see the two passes below).
  tip: () => (cached ? 'the bench chain' : undefined),
  chainContext: () => ({
    height: 1,
    epochStart: '2026-11-01T00:00:00.000Z',
    addressOf: (key) => key,
  }),
});
const routes: Plugin<object> = {
  name: 'bench-routes',
  dependsOn: { required: ['api'] },
  register: ({ container }) => {
    // Where the API plugin reads the chain tip, as the state plugin registers it.
    container.register({ ledger: asValue(ledger) });
    const json = resourceJson();
    container.cradle.apiRoutes.add(
      ...cachedPerBlock([
        ...walletRoutes(() => ledger, json.wallets),
        ...delegateRoutes(() => ledger, json),
      ]),
      {
        method: 'GET',
        path: '/api/constant',
        handler: () => ({ data: { ok: true } }),
      },
    );
  },
};
const kernel = await startTestKernel({
  plugins: [
    { plugin: routes },
    {
      plugin: apiPlugin as Plugin<object>,
      options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false } },
    },
  ],
  printLevel: 'fatal',
});
const uri = kernel.cradle.apiServer.server.info.uri;

const cases: [string, string][] = [
  ['constant', '/api/constant'],
  ['delegates by votes (100)', '/api/delegates?orderBy=votes:desc'],
  ['delegates by username list', '/api/delegates?username=delegate_3,delegate_7&isResigned=false'],
  ['wallet by delegate username', '/api/wallets?attributes.delegate.username=delegate_42'],
  ['wallets by balance, page 50', '/api/wallets?orderBy=balance:desc&page=50'],
  ['wallets top 10', '/api/wallets/top?limit=10'],
];

console.log(
  `${WALLETS} wallets, ${DELEGATES} delegates, ${CONNECTIONS} connections, ${SECONDS} s each`,
);
console.log('every request computed (response cache off):');
await loadRoutes(uri, cases, { connections: CONNECTIONS, seconds: SECONDS, nameWidth: 32 });
cached = true;
console.log('repeated requests at one chain tip (response cache on, as a node runs):');
await loadRoutes(uri, cases, { connections: CONNECTIONS, seconds: SECONDS, nameWidth: 32 });
await kernel.stop();
await ledger.close();
