// Lint for the whole workspace. Besides typescript-eslint, the hooks rules and no import circles, one
// rule keeps the architecture honest: imports flow shared → mf-* → shell, remotes never import each other,
// and browser code and the platform's Node packages (platform/*) never import each other's source.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { noImportCycle } from './scripts/eslint-no-import-cycle.mjs';

// Files that are data written as code (the demo catalogue and sites), exempt from max-lines.
const dataFiles = ['platform/demo/src/catalogue.ts', 'platform/demo/src/demo-sites.ts'];

const remotes = ['mf-search', 'mf-vehicle', 'mf-leads', 'mf-checkout', 'mf-garage', 'mf-chat'];

const platformImports = [
  '@dealer/server',
  '@dealer/server/*',
  '@dealer/db',
  '@dealer/db/*',
  '@dealer/leads',
  '@dealer/leads/*',
  '@dealer/search-engine',
  '@dealer/search-engine/*',
  '@dealer/demo',
  '@dealer/demo/*',
  '@dealer/testing',
  '@dealer/testing/*',
  '**/platform/**',
];
const browserOnlyImports = [
  '@dealer/shell',
  '@dealer/shell/*',
  '**/shell/**',
  '@dealer/ui',
  '@dealer/ui/*',
  '@dealer/state',
  '@dealer/state/*',
  '@dealer/events',
  '@dealer/events/*',
  ...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`]),
];

const boundaries = (...zones) => ({
  'no-restricted-imports': [
    'error',
    { patterns: zones.filter(([, patterns]) => patterns.length > 0).map(([message, patterns]) => ({ group: patterns, message })) },
  ],
});
const boundary = (message, patterns) => boundaries([message, patterns]);

// The platform's packages and the @dealer packages each may import (package.json says the same):
// search-engine ← server; db ← leads, demo, server; leads ← server; demo ← server. The test doubles
// (@dealer/testing, which opens stores of db) are for tests only: a package's tests and their helpers
// (src/testing) may import them, its production code never.
const platformPackages = {
  'search-engine': [],
  db: [],
  leads: ['db'],
  demo: ['db'],
  server: ['search-engine', 'db', 'leads', 'demo'],
  testing: ['db'],
};
const testCode = ['**/*.test.ts', '**/src/testing/**'];
const fastifyImports = ['fastify', 'fastify/*', '@fastify/*'];
const platformBoundaries = {
  'search-engine': [
    'The search engine is pure: Meilisearch’s behaviour in memory, without HTTP (Fastify), a store or dealer types (@dealer/*).',
    [...fastifyImports, '@dealer/*'],
  ],
  db: ['The store knows no HTTP (Fastify) and nothing of the lead pipeline, the demo or the server that use it.', fastifyImports],
  leads: ['The lead pipeline knows no HTTP (Fastify): the server’s routes and site cache call it.', fastifyImports],
  demo: ['The demo data and its drawings know no HTTP (Fastify): the server serves them.', fastifyImports],
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always' }],
    },
  },
  {
    files: ['**/*.{mjs,js}'],
    languageOptions: { globals: globals.node },
  },
  // A file past 500 lines of code (blank lines and comments not counted) is a sign it holds two things. Data files are exempt.
  {
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: dataFiles,
    rules: { 'max-lines': ['warn', { max: 500, skipBlankLines: true, skipComments: true }] },
  },
  // No import circles, type-only ones included: see scripts/eslint-no-import-cycle.mjs.
  {
    plugins: { workspace: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'workspace/no-import-cycle': 'error' },
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
    rules: boundary(
      'The shell loads remotes at run time from the site config and talks to the platform over HTTP; it never imports their source.',
      [...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`]), ...platformImports],
    ),
  },
  // The shell puts HTML into the page in one place: the dealer's formatted text, which the server
  // sanitised before storing it. Anywhere else it would be a way round that sanitiser.
  {
    files: ['shell/src/**/*.{ts,tsx}'],
    ignores: ['shell/src/content/blocks/rich-html.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...["JSXAttribute[name.name='dangerouslySetInnerHTML']", "Property[key.name='dangerouslySetInnerHTML']"].map((selector) => ({
          selector,
          message: 'Only content/blocks/rich-html.tsx sets HTML (the server sanitised it): render text and elements instead.',
        })),
      ],
    },
  },
  {
    files: ['console/**/*.{ts,tsx}'],
    rules: boundary(
      'The dealer console, like the shell, loads each dealer screen at run time from the remote that owns it and talks to the platform over HTTP; it never imports their source or the shell.',
      [
        ...remotes.flatMap((remote) => [`@dealer/${remote}`, `@dealer/${remote}/*`, `**/${remote}/**`]),
        '@dealer/shell',
        '@dealer/shell/*',
        '**/shell/**',
        ...platformImports,
      ],
    ),
  },
  {
    files: ['platform/**/*.{ts,tsx}'],
    rules: boundary(
      'The platform serves browser code but never imports it: share through @dealer/contracts and @dealer/rules.',
      browserOnlyImports,
    ),
  },
  // Each platform package imports only the platform packages it depends on, always by package name
  // (`@dealer/db/database`), never by a relative path into another package's folder.
  ...Object.entries(platformPackages).flatMap(([name, allowed]) => {
    const others = Object.keys(platformPackages).filter((other) => other !== name);
    const rulesFor = (allowedHere, dependsOn) =>
      boundaries(
        ['The platform serves browser code but never imports it: share through @dealer/contracts and @dealer/rules.', browserOnlyImports],
        [
          `${dependsOn} (search-engine ← server; db ← leads, demo, server; leads ← server; demo ← server; testing ← the tests of any).`,
          others.filter((other) => !allowedHere.includes(other)).flatMap((other) => [`@dealer/${other}`, `@dealer/${other}/*`]),
        ],
        [
          'Import another platform package by its name (@dealer/db/database), never by a path into its folder.',
          ['**/platform/**', ...others.flatMap((other) => [`**/${other}/src`, `**/${other}/src/**`])],
        ],
        ...(platformBoundaries[name] ? [platformBoundaries[name]] : []),
      );
    const dependencies = allowed.length ? allowed.map((other) => `@dealer/${other}`).join(', ') : 'no other platform package';
    return [
      {
        files: [`platform/${name}/**/*.{ts,tsx}`],
        ignores: testCode,
        rules: rulesFor(
          allowed,
          `@dealer/${name} depends on ${dependencies}${name === 'testing' ? '' : '; the test doubles of @dealer/testing are for its tests only'}`,
        ),
      },
      {
        files: testCode.map((pattern) => `platform/${name}/${pattern}`),
        rules: rulesFor(
          [...allowed, 'testing'],
          `The tests of @dealer/${name} may import ${dependencies === 'no other platform package' ? '' : `${dependencies} and `}@dealer/testing`,
        ),
      },
    ];
  }),
);
