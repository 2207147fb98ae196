// A condition worker that never answers: a condition stuck until the matcher's timeout.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => undefined);
