import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/scripts/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // The interop scenarios need root and ARK Core: `npm run test:interop`; the plugin author's
    // path installs from the npm registry: `npm run test:plugins`.
    exclude: [
      '**/node_modules/**',
      '**/dist/**',
      'test/interop/*.test.ts',
      'test/plugins/*.test.ts',
    ],
    pool: 'forks',
    // Two files at a time on two cores: most files wait on PostgreSQL, sockets or timers.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
