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
    // above local-cluster's own waits (a master 60 s, then each minion 30 s), so a slow start on
    // a loaded machine fails with their message (which daemon, its log) and not a bare timeout
    hookTimeout: 120_000,
    // tsalt's zod (packages/zod, linked as node_modules/zod) runs as Node loads it, one copy
    // shared with the plugins a test imports natively, as every package under node_modules
    server: { deps: { external: [/\/packages\/zod\/dist\//] } },
    pool: 'forks',
    maxWorkers: 2,
  },
});
