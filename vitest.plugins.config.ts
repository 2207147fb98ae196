import { defineConfig } from 'vitest/config';

// `npm run test:plugins`: a plugin author's path from outside the repository, which installs
// packages from the npm registry (slow, and needs the network): not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/plugins/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
