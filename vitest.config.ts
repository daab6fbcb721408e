import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'kernel/**/*.test.ts',
      'master/**/*.test.ts',
      'minion/**/*.test.ts',
      'client/**/*.test.ts',
      'modules/**/*.test.ts',
      'states/**/*.test.ts',
      'returners/**/*.test.ts',
      'plugins/**/*.test.ts',
      'outputters/**/*.test.ts',
      'cli/**/*.test.ts',
      'tools/**/*.test.ts',
      'packaging/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
