import { parentPort } from 'node:worker_threads';
import type { ConditionRequest, ConditionResponse } from './condition-protocol.js';
import { ConditionSet } from './conditions.js';

/**
 * The thread that tests webhook conditions, away from the one that applies blocks: a condition
 * that took long (a huge value, a costly pattern) delays deliveries, never the chain.
 */
if (parentPort === null) throw new Error('the webhook condition matcher must run in a worker');
const port = parentPort;
let webhooks = new Map<string, ConditionSet>();

port.on('message', (request: ConditionRequest) => {
  if (request.kind === 'webhooks') {
    webhooks = new Map(
      request.webhooks.map((webhook) => [webhook.id, new ConditionSet(webhook.conditions)]),
    );
    return;
  }
  const matching = request.webhookIds.filter((id) => webhooks.get(id)?.holdOn(request.data));
  port.postMessage({ id: request.id, matching } satisfies ConditionResponse);
});
