// Lint for the whole workspace. Besides typescript-eslint and the hooks rules, one rule keeps
// the architecture honest: imports flow shared → mf-* → shell, remotes never import each other, and
// browser code and the platform's Node packages (platform/*) never import each other's source.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const remotes = ['mf-search', 'mf-vehicle', 'mf-leads', 'mf-checkout', 'mf-garage', 'mf-chat'];

const platformImports = ['@dealer/server', '@dealer/server/*', '@dealer/db', '@dealer/db/*', '@dealer/leads', '@dealer/leads/*', '@dealer/search-engine', '@dealer/search-engine/*', '@dealer/demo', '@dealer/demo/*', '**/platform/**'];
const browserOnlyImports = ['@dealer/shell', '@dealer/shell/*', '**/shell/**', '@dealer/ui', '@dealer/ui/*', '@dealer/state', '@dealer/state/*', '@dealer/events', '@dealer/events/*', ...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`])];

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
      ...platformImports,
    ]),
  })),
  {
    files: ['shared/**/*.{ts,tsx}'],
    rules: boundary('Shared packages are the bottom layer: they never import a remote, the shell or the platform.', [
      ...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`]),
      '@dealer/shell',
      '@dealer/shell/*',
      '**/shell/**',
      ...platformImports,
    ]),
  },
  {
    files: ['shell/**/*.{ts,tsx}'],
    rules: boundary('The shell loads remotes at run time from the site config and talks to the platform over HTTP; it never imports their source.', [
      ...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`]),
      ...platformImports,
    ]),
  },
  {
    files: ['platform/**/*.{ts,tsx}'],
    rules: boundary('The platform serves browser code but never imports it: share through @dealer/contracts and @dealer/rules.', browserOnlyImports),
  },
);
