import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/*/src/**/*.test.{ts,tsx}', 'shell/{src,server}/**/*.test.{ts,tsx}', 'mf-*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
