import { defineConfig } from 'vitest/config';

// Its own configuration, so that vitest does not climb to a repository's around it.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
