import { defineConfig } from 'vitest/config';
import { sharedSingletons } from './shared/build/src/shared-singletons.mjs';

export default defineConfig({
  // What the shell's build injects (shared/build/src/mf-config.mjs hostConfig).
  define: { __SHARED_SINGLETONS__: JSON.stringify(sharedSingletons) },
  test: {
    include: [
      'shared/*/src/**/*.test.{ts,tsx}',
      'shell/src/**/*.test.{ts,tsx}',
      'platform/*/src/**/*.test.ts',
      'mf-*/src/**/*.test.{ts,tsx}',
      'console/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.mjs',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
