// Builds, signs and submits one transfer through an API (the load balancer of the api nodes),
// as a wallet would: the network from /node/configuration/crypto, the sender's nonce from
// /wallets. The sender is the first delegate of testnet's delegates.json. Prints the id of the
// transaction once the answer accepts it; exits 1 with the answer otherwise.
// Usage: node submit-transfer.mjs http://127.0.0.1:PORT/api
/* global fetch, AbortSignal, URL */
import { Identities, Managers, Transactions } from '@arkecosystem/crypto';
import { readFile } from 'node:fs/promises';

const api = process.argv[2];
const delegates = new URL('../../packages/cli/networks/testnet/delegates.json', import.meta.url);
const passphrase = JSON.parse(await readFile(delegates, 'utf8')).secrets[0];

async function call(path, init) {
  const response = await fetch(`${api}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.json() };
}

Managers.configManager.setConfig((await call('/node/configuration/crypto')).body.data);
Managers.configManager.setHeight((await call('/blockchain')).body.data.block.height);
const sender = Identities.Address.fromPassphrase(passphrase);
const wallet = (await call(`/wallets/${sender}`)).body.data;
const transfer = Transactions.BuilderFactory.transfer()
  .recipientId(Identities.Address.fromPassphrase('docker e2e recipient'))
  .amount('100000000')
  .nonce((BigInt(wallet.nonce) + 1n).toString())
  .sign(passphrase)
  .getStruct();

const sent = await call('/transactions', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ transactions: [transfer] }),
});
if (sent.status !== 200 || !sent.body.data?.accept?.includes(transfer.id)) {
  console.error(`POST /transactions: ${sent.status} ${JSON.stringify(sent.body)}`);
  process.exit(1);
}
console.log(transfer.id);
