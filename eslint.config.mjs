// Lint for the whole workspace. Besides typescript-eslint and the hooks rules, one rule keeps
// the architecture honest: imports flow shared → mf-* → shell, and remotes never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const remotes = ['mf-search', 'mf-vehicle', 'mf-leads', 'mf-checkout', 'mf-garage', 'mf-chat'];

const boundary = (message, patterns) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always' }],
    },
  },
  {
    files: ['**/*.{mjs,js}'],
    languageOptions: { globals: globals.node },
  },
  ...remotes.map((remote) => ({
    files: [`${remote}/**/*.{ts,tsx}`],
    rules: boundary(`A remote never imports another remote or the shell: meet through @dealer/contracts, the event bus and slots.`, [
      ...remotes.filter((other) => other !== remote).flatMap((other) => [`@dealer/${other}`, `@dealer/${other}/*`, `**/${other}/**`]),
      '@dealer/shell',
      '@dealer/shell/*',
      '**/shell/**',
    ]),
  })),
  {
    files: ['shared/**/*.{ts,tsx}'],
    rules: boundary('Shared packages are the bottom layer: they never import a remote or the shell.', [
      ...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`]),
      '@dealer/shell',
      '@dealer/shell/*',
      '**/shell/**',
    ]),
  },
  {
    files: ['shell/**/*.{ts,tsx}'],
    rules: boundary('The shell loads remotes at run time from the site config; it never imports their source.', remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`])),
  },
);
