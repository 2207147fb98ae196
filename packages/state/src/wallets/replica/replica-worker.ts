import { parentPort } from 'node:worker_threads';
import { WalletQueryError } from '../errors.js';
import { WalletQueryEngine } from '../query/wallet-query-engine.js';
import { WalletRepository } from '../wallet-repository.js';
import type { ReplicaRequest, ReplicaResponse } from './replica-protocol.js';

/**
 * The replica's thread: a copy of the node's wallets with the same indexes and query engine,
 * answering the queries too costly for the thread that applies blocks.
 */
if (parentPort === null) throw new Error('the wallet replica must run inside a worker thread');
const port = parentPort;
const wallets = new WalletRepository();
const engine = new WalletQueryEngine({ walletRepository: wallets });

port.on('message', (request: ReplicaRequest) => {
  switch (request.kind) {
    case 'load':
      wallets.load(request.wallets);
      return;
    case 'mirror':
      wallets.mirror(request.changes);
      return;
    case 'query':
      port.postMessage(answer(request));
  }
});

function answer({ id, scope, query, deadline }: Extract<ReplicaRequest, { kind: 'query' }>) {
  if (Date.now() > deadline) return { id, kind: 'expired' } satisfies ReplicaResponse;
  try {
    const page = scope === 'wallets' ? engine.wallets(query) : engine.delegates(query);
    return { id, kind: 'page', page } satisfies ReplicaResponse;
  } catch (error) {
    if (error instanceof WalletQueryError) {
      const { message, field } = error;
      return { id, kind: 'refused', message, field } satisfies ReplicaResponse;
    }
    return { id, kind: 'failed', message: String(error) } satisfies ReplicaResponse;
  }
}
