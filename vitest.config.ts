import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/*/src/**/*.test.{ts,tsx}', 'shell/src/**/*.test.{ts,tsx}', 'platform/*/src/**/*.test.ts', 'mf-*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
