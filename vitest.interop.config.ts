import { defineConfig } from 'vitest/config';

// `npm run test:interop`: ARK Core and LNI nodes in network namespaces (root only). One file at
// a time: each starts several nodes on the same ports of their own namespaces, and two files
// at once would only compete for the machine's cores.
export default defineConfig({
  test: {
    include: ['test/interop/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['test/interop/support/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
