import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VerificationPoolError } from './verification-pool-error.js';

/**
 * The compiled worker beside this module. When this module runs from TypeScript source (vitest,
 * tsx), the worker is taken from the package's dist/ instead, since a worker thread cannot load
 * .ts files on its own.
 */
export function defaultWorkerUrl(moduleUrl: string = import.meta.url): URL {
  const url = new URL('./worker.js', moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return url;
  return new URL(
    url.href.replace(/\/src\/verification\/worker\.js$/, '/dist/verification/worker.js'),
  );
}

export function assertWorkerExists(url: URL): void {
  if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) {
    throw new VerificationPoolError(
      `verification worker not found at ${fileURLToPath(url)}; build @lni/crypto first (npx tsc -b packages/crypto)`,
    );
  }
}
