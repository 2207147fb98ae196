// A condition worker that takes SLOW_MS to answer (every webhook asked about matches): a costly
// condition, as the matcher sees it.
import { setTimeout } from 'node:timers';
import { parentPort } from 'node:worker_threads';

export const SLOW_MS = 800;
parentPort.on('message', (request) => {
  if (request.kind !== 'match') return;
  setTimeout(
    () => parentPort.postMessage({ id: request.id, matching: request.webhookIds }),
    SLOW_MS,
  );
});
