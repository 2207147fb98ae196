/**
 * A child process for the webhook outbox test: a ledger node (PostgreSQL, state, API with
 * webhooks) that takes a webhook on `block.applied` for the URL in argv[2], prints where its
 * data is (one JSON line), then forges one block and dies with SIGKILL right after the block's
 * transaction committed, before anything could be sent. Run with `node --import tsx`.
 */
import { definePlugin, type Plugin } from '@lni/kernel';
import { startLedgerNode } from './ledger-node.js';

let armed = false;

/** Joins the block's transaction after the API did: its after-commit step runs right after the API's. */
const crashAfterCommit = definePlugin({
  name: 'crash-after-commit',
  dependsOn: { required: ['state', 'api'] },
  register() {},
  async boot({ container }) {
    container.cradle.blockCommit.join(async () => () => {
      if (armed) process.kill(process.pid, 'SIGKILL');
    });
  },
});

const target = process.argv[2] as string;
const node = await startLedgerNode([{ plugin: crashAfterCommit as Plugin<object> }], {
  webhooks: { pollMs: 100, firstRetryMs: 200, maxRetryMs: 1_000, timeoutMs: 2_000 },
});
const response = await fetch(`${node.api}/webhooks`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ event: 'block.applied', target }),
});
if (response.status !== 201) throw new Error(`webhook not created: ${response.status}`);
process.stdout.write(
  `${JSON.stringify({ connection: node.databaseConnection, paths: node.kernel.paths })}\n`,
);
armed = true;
await node.forgeNow();
// Not reached: the process died after the commit.
process.stdout.write('survived\n');
