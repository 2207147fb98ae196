import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/scripts/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // The interop scenarios need root and ARK Core: `npm run test:interop`.
    exclude: ['**/node_modules/**', '**/dist/**', 'test/interop/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
