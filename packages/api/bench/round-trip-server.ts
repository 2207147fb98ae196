/**
 * The read tier bench's yardstick (read-tier.ts): a bare hapi server, none of the node's code,
 * answering a wallet's row by address either from a Map filled at start or with one query of
 * the `wallets` table by its primary key, on a database given as PG* variables (the standby).
 * Each request takes the next address in turn. Prints `listening` once it answers.
 * Run by read-tier.ts: node --import tsx round-trip-server.ts <port>.
 */
import Hapi from '@hapi/hapi';
import pg from 'pg';

const port = Number(process.argv[2]);
const ROW_SQL =
  'SELECT address, balance::text AS balance, nonce::text AS nonce, attributes::text AS attributes ' +
  'FROM wallets WHERE address = $1';

const pool = new pg.Pool({ max: 10 });
const rows = new Map<string, unknown>();
for (const row of (await pool.query<{ address: string }>(ROW_SQL.replace('address = $1', 'true')))
  .rows) {
  rows.set(row.address, row);
}
const addresses = [...rows.keys()];
let next = 0;
const nextAddress = () => addresses[(next += 1) % addresses.length] as string;

const server = Hapi.server({ host: '127.0.0.1', port });
server.route({ method: 'GET', path: '/memory', handler: () => rows.get(nextAddress()) });
server.route({
  method: 'GET',
  path: '/postgres',
  handler: async () =>
    (await pool.query({ name: 'wallet-row', text: ROW_SQL, values: [nextAddress()] })).rows[0],
});
await server.start();
process.on('SIGTERM', () => {
  void server.stop().then(() => pool.end().then(() => process.exit(0)));
});
console.log('listening');
