import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/interop/support/longest-first.js';

// `npm run test:interop`: ARK Core and LNI nodes in network namespaces (root only). Two files at
// a time: each builds its own network (namespaces, databases and sockets named after its run),
// and most of a scenario waits on ARK's 8 s block time rather than on the cores.
export default defineConfig({
  test: {
    include: ['test/interop/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['test/interop/support/global-setup.ts'],
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
