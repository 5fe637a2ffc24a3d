import { defineConfig } from 'vitest/config';

// One project per layer, mirroring the source tree (STYLE.md, practice 8).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['test/shared/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false } },
    ],
  },
});
