import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled replica worker. From TypeScript source (vitest, tsx) it is the one in the
 * package's dist/, since a worker thread cannot load .ts files on its own.
 */
export function replicaWorkerUrl(moduleUrl: string = import.meta.url): URL {
  const url = new URL('./replica-worker.js', moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return url;
  return new URL(url.href.replace(/\/src\/(wallets\/replica\/[^/]+)$/, '/dist/$1'));
}

export function assertReplicaWorkerExists(url: URL): void {
  if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) {
    throw new Error(
      `wallet replica worker not found at ${fileURLToPath(url)}; build @lni/state first (npx tsc -b packages/state)`,
    );
  }
}
