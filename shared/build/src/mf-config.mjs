// One Rspack + Module Federation config factory: every remote's and the shell's
// rspack.config.mjs calls it in a few lines, so the build rules live once.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { sharedSingletons } from './shared-singletons.mjs';
import { assertBrowserRouterImports, browserRouterShared } from './browser-router.mjs';

const swcRule = {
  test: /\.(ts|tsx|js|mjs)$/,
  exclude: /node_modules[\\/](?!@dealer)/,
  loader: 'builtin:swc-loader',
  options: {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
  },
  type: 'javascript/auto',
};

/** Where the Module Federation plugin finds its runtime packages (the versions it injects). */
function federationPaths() {
  const require = createRequire(import.meta.url);
  const fromRspackPlugin = createRequire(require.resolve('@module-federation/enhanced/rspack'));
  const rspackPlugin = fromRspackPlugin.resolve('@module-federation/rspack');
  const runtimeTools = createRequire(rspackPlugin).resolve('@module-federation/runtime-tools/bundler');
  return { rspackPlugin, runtimeTools, fromTools: createRequire(runtimeTools) };
}

/**
 * The MF runtime the plugin injects is imported from the packages' CommonJS builds (resolved with
 * require.resolve), which the bundler cannot tree-shake: every browser bundle then carried the
 * SDK's Node loaders and manifest helpers, and the host two copies of the runtime core once
 * `provideExternalRuntime` imported its ESM build. Pointing the same modules at their ESM builds
 * lets unused exports go and keeps one copy. Same packages, same versions, same code paths.
 */
function federationRuntimeEsmAliases() {
  const { rspackPlugin, fromTools } = federationPaths();
  const cjsEntries = [
    fromTools.resolve('@module-federation/webpack-bundler-runtime'),
    fromTools.resolve('@module-federation/runtime'),
    fromTools.resolve('@module-federation/runtime-tools/runtime-core'),
    createRequire(rspackPlugin).resolve('@module-federation/inject-external-runtime-core-plugin'),
  ];
  const aliases = {};
  for (const cjs of cjsEntries) {
    const esm = cjs.replace(/\.cjs$/, '.js');
    if (esm !== cjs && existsSync(esm)) aliases[`${cjs}$`] = esm;
  }
  // The rspack plugin aliases the bare name to the CommonJS build; a user alias wins.
  aliases['@module-federation/runtime$'] = fromTools.resolve('@module-federation/runtime').replace(/\.cjs$/, '.js');
  // One SDK: the retry plugin (0.17) would otherwise bring its own copy of an older SDK for its
  // logger; the runtime's SDK has the same createLogger(prefix).
  const sdk = createRequire(fromTools.resolve('@module-federation/runtime'))
    .resolve('@module-federation/sdk')
    .replace(/\.cjs$/, '.js');
  if (existsSync(sdk)) aliases['@module-federation/sdk$'] = sdk;
  return aliases;
}

/** Bundles `entry` alone (no Module Federation) into one minified browser script; resolves to its code. */
async function buildStandaloneScript({ context, entry, rules = [], defines = {} }) {
  const work = mkdtempSync(join(tmpdir(), 'dealer-script-'));
  try {
    const compiler = rspack({
      mode: 'production',
      target: 'web',
      context,
      entry: { script: entry },
      output: { path: work, filename: '[name].js', iife: true },
      resolve: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
      module: { rules },
      plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production'), ...defines })],
      stats: 'errors-only',
    });
    const stats = await new Promise((resolve, reject) =>
      compiler.run((error, result) => {
        compiler.close(() => undefined);
        if (error) reject(error);
        else resolve(result);
      }),
    );
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    return { code: readFileSync(join(work, 'script.js'), 'utf8'), files: [...stats.compilation.fileDependencies] };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const contentName = (base, code) => `${base}.${createHash('sha256').update(code).digest('hex').slice(0, 10)}.js`;

let runtimeCoreBundle = null;

/** The MF runtime core as one browser script that sets the global the remotes' runtime reads. */
function buildRuntimeCoreProvider() {
  runtimeCoreBundle ??= (async () => {
    const { fromTools } = federationPaths();
    const core = fromTools.resolve('@module-federation/runtime-tools/runtime-core').replace(/\.cjs$/, '.js');
    const version = JSON.parse(readFileSync(join(dirname(core), '..', 'package.json'), 'utf8')).version;
    const work = mkdtempSync(join(tmpdir(), 'mf-runtime-core-'));
    try {
      const entry = join(work, 'provide-runtime-core.mjs');
      writeFileSync(
        entry,
        `import * as core from ${JSON.stringify(core)};\n` +
          `if (!globalThis._FEDERATION_RUNTIME_CORE) { globalThis._FEDERATION_RUNTIME_CORE = core; globalThis._FEDERATION_RUNTIME_CORE_FROM = { name: 'standalone', version: ${JSON.stringify(version)} }; }\n`,
      );
      const { code } = await buildStandaloneScript({ context: work, entry, defines: { ENV_TARGET: JSON.stringify('web') } });
      return code;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  })();
  return runtimeCoreBundle;
}

/**
 * Remote entries leave the MF runtime core out (`experiments.externalRuntime`): in a composed
 * page the shell provides it once instead of every remote carrying its own ~20 KB gz copy. A
 * remote's standalone page has no shell, so it gets the core as its first script.
 */
class StandaloneRuntimeCorePlugin {
  apply(compiler) {
    const { Compilation, sources, HtmlRspackPlugin } = compiler.rspack;
    let file = null;
    compiler.hooks.beforeCompile.tapPromise('StandaloneRuntimeCorePlugin', async () => {
      const code = await buildRuntimeCoreProvider();
      file = { name: contentName('mf-runtime-core', code), code };
    });
    compiler.hooks.thisCompilation.tap('StandaloneRuntimeCorePlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'StandaloneRuntimeCorePlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(file.name, new sources.RawSource(file.code), { immutable: true });
        },
      );
      HtmlRspackPlugin.getCompilationHooks(compilation).alterAssetTags.tapPromise('StandaloneRuntimeCorePlugin', async (data) => {
        data.assetTags.scripts.unshift({ tagName: 'script', attributes: { defer: true, src: file.name }, voidTag: false });
        return data;
      });
    });
  }
}

function baseConfig({ dir, outDir, mode }) {
  const production = mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    devtool: production ? false : 'cheap-module-source-map',
    entry: { main: './src/index.ts' },
    output: {
      path: outDir,
      publicPath: 'auto',
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      cssFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      cssChunkFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      clean: true,
    },
    resolve: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'], alias: federationRuntimeEsmAliases() },
    module: { rules: [swcRule, { test: /\.css$/, type: 'css/auto' }] },
    optimization: { minimize: production },
    performance: { hints: false },
    plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') })],
    stats: 'errors-warnings',
  };
}

/** Emits dealer-remote.json: what the remote says about itself beside its mf-manifest.json. */
class RemoteDescriptorPlugin {
  constructor(descriptor) {
    this.descriptor = descriptor;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RemoteDescriptorPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'RemoteDescriptorPlugin', stage: compiler.rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(
            'dealer-remote.json',
            new compiler.rspack.sources.RawSource(`${JSON.stringify(this.descriptor, null, 2)}\n`),
          );
        },
      );
    });
  }
}

/**
 * A remote: its exposed modules, a manifest, and a standalone dev page (index.html) that
 * mounts the remote's own demo with the shared design system.
 * `slots` names the named slots (SlotProps in @dealer/contracts/remote-modules) its exposed
 * modules fill, e.g. `{ 'vehicle.actions': ['ReserveButton'] }`; they are written to
 * dealer-remote.json beside the manifest, which the server reads for the sites running this version.
 * `server`: the module (e.g. './src/server.ts') exporting `modules` (ServerRemote in
 * @dealer/state/server-render), the exposed modules this remote renders on the server; it is built
 * for Node into server/remote.cjs beside the browser build (see serverRemoteConfig).
 * @param {{ dir: string; name: string; exposes: Record<string, string>; slots?: Record<string, string[]>; server?: string; port: number; outDir?: string; mode?: string }} opts
 */
export function remoteConfig({
  dir,
  name,
  exposes,
  slots = {},
  server,
  port,
  outDir = process.env.REMOTE_OUT_DIR || join(dir, 'dist'),
  mode = process.env.NODE_ENV,
}) {
  for (const [slot, modules] of Object.entries(slots)) {
    for (const module of modules) {
      if (!exposes[`./${module}`])
        throw new Error(
          `${name} fills slot "${slot}" with "${module}", which it does not expose (exposes: ${Object.keys(exposes).join(', ')})`,
        );
    }
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // In a composed page the remote gets the shell's browser build of React Router.
  assertBrowserRouterImports([join(dir, 'src')], dir);
  const config = baseConfig({ dir, outDir, mode });
  config.plugins.push(
    // The version a page runs is visible in its markup (data-remote-version), for support and tests.
    new rspack.DefinePlugin({ __REMOTE_VERSION__: JSON.stringify(process.env.REMOTE_VERSION || `${pkg.version}-dev`) }),
    new ModuleFederationPlugin({
      name: name.replace('-', '_'),
      filename: 'remoteEntry.js',
      exposes,
      shared: sharedSingletons,
      manifest: true,
      dts: false,
      experiments: { externalRuntime: true, optimization: { disableRemote: true, target: 'web' } },
    }),
    new RemoteDescriptorPlugin({ name, slots }),
    // A remote's code runs when the app starts or later, never as a page loads.
    compileHints(/\.js$/),
    new rspack.HtmlRspackPlugin({
      title: `${name} ${pkg.version} (standalone)`,
      template: existsSync(join(dir, 'index.html')) ? join(dir, 'index.html') : undefined,
    }),
    new StandaloneRuntimeCorePlugin(),
  );
  // Chunks only the standalone page uses (runtime "main") take no part in splitting: code an
  // exposed module shares with the standalone page stays in the exposed module's own chunk,
  // instead of a split chunk that every composed page then requests (and preloads) separately.
  config.optimization.splitChunks = {
    chunks: (chunk) => {
      const runtime = [...(chunk.runtime ?? [])];
      return !chunk.canBeInitial() && !(runtime.length === 1 && runtime[0] === 'main');
    },
  };
  // The standalone page talks to a running platform as one demo site, through this proxy.
  const platform = process.env.PLATFORM_URL || 'http://127.0.0.1:3000';
  const siteHost = `${process.env.STANDALONE_SITE || 'metro-motor-group'}.localhost:${new URL(platform).port || 80}`;
  config.devServer = {
    port,
    headers: { 'Access-Control-Allow-Origin': '*' },
    historyApiFallback: true,
    // As the site's own pages: its host, and its origin (the platform refuses form posts from other origins).
    proxy: [{ context: ['/api', '/meili', '/img'], target: platform, headers: { host: siteHost, origin: `http://${siteHost}` } }],
  };
  if (!server) return config;
  config.name = 'browser';
  return [config, serverRemoteConfig({ dir, entry: server, outDir, version: process.env.REMOTE_VERSION || `${pkg.version}-dev` })];
}

/** Whether a module a remote imports is one the page shares (sharedSingletons: exact names and `prefix/` entries). */
function isSharedSingleton(request) {
  return Object.keys(sharedSingletons).some((key) => (key.endsWith('/') ? request.startsWith(key) : request === key));
}

/**
 * A server render compiled for Node into `outPath/<entry name>.cjs` (CommonJS, one file): the
 * shell's (shell/rspack.server.config.mjs) and each remote's (serverRemoteConfig). Requests
 * `isExternal` accepts stay `require`s, answered at run time; the rest is bundled. Styles are the
 * browser build's business: their imports compile to nothing.
 * @param {{ dir: string; entry: Record<string, string>; outPath: string; isExternal: (request: string) => boolean; clean?: boolean; defines?: Record<string, string> }} opts
 */
export function nodeRenderConfig({ dir, entry, outPath, isExternal, clean = true, defines = {} }) {
  return {
    mode: 'production',
    target: 'node20',
    context: dir,
    entry,
    output: { path: outPath, filename: '[name].cjs', library: { type: 'commonjs2' }, clean },
    externalsPresets: { node: true },
    externals: [
      ({ request }, callback) =>
        request && !request.endsWith('.css') && isExternal(request) ? callback(undefined, `commonjs ${request}`) : callback(),
    ],
    resolve: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
    module: {
      rules: [
        swcRule,
        { test: /\.css$/, type: 'javascript/auto', loader: join(dirname(fileURLToPath(import.meta.url)), 'no-styles-loader.cjs') },
      ],
    },
    optimization: { minimize: false, splitChunks: false },
    performance: { hints: false },
    devtool: false,
    plugins: [
      new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production'), ...defines }),
      new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    stats: 'errors-warnings',
  };
}

/**
 * A remote's server build: `server` compiled for Node into server/remote.cjs. The modules the page
 * shares (React, the router, the store, the slot contexts) stay imports, which the platform answers
 * with the shell's server render's own instances; everything else (rules, design system, form
 * library, search client) is bundled, as in the browser build.
 */
function serverRemoteConfig({ dir, entry, outDir, version }) {
  return {
    ...nodeRenderConfig({
      dir,
      entry: { remote: entry },
      outPath: join(outDir, 'server'),
      isExternal: isSharedSingleton,
      clean: false,
      defines: { __REMOTE_VERSION__: JSON.stringify(version) },
    }),
    name: 'server',
    // After the browser build, which empties the output folder first.
    dependencies: ['browser'],
  };
}

/**
 * Writes assets.json: the initial files of the entry, which the server puts in the document (a
 * preload and a deferred <script> for each JS file, in this order; a stylesheet link for each CSS
 * file). With `firstPaint`, that module is bundled on its own (no shared modules), listed first
 * and named as `firstPaint`: a few KB the browser runs as soon as the document and the styles are
 * there, before the app (a server-rendered document lists only it; it loads the rest).
 */
class EntryAssetsPlugin {
  constructor({ firstPaint } = {}) {
    this.firstPaint = firstPaint;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.rspack;
    let firstPaint = null;
    if (this.firstPaint) {
      compiler.hooks.beforeCompile.tapPromise('EntryAssetsPlugin', async () => {
        const { code, files } = await buildStandaloneScript({ context: compiler.context, entry: this.firstPaint, rules: [swcRule] });
        firstPaint = { name: contentName('first-paint', code), code, files };
      });
    }
    compiler.hooks.thisCompilation.tap('EntryAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'EntryAssetsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const files = compilation.entrypoints.get('main')?.getFiles() ?? [];
        const assets = { js: files.filter((f) => f.endsWith('.js')), css: files.filter((f) => f.endsWith('.css')) };
        if (firstPaint) {
          compilation.emitAsset(firstPaint.name, new sources.RawSource(firstPaint.code), { immutable: true });
          for (const file of firstPaint.files) if (!file.includes('node_modules')) compilation.fileDependencies.add(file);
          assets.js.unshift(firstPaint.name);
          assets.firstPaint = firstPaint.name;
        }
        compilation.emitAsset('assets.json', new sources.RawSource(JSON.stringify(assets)));
      });
    });
  }
}

/** RTK Query's modules and the platform API slice: the shell's lazily provided group. */
const rtkQueryOrPlatformApi = (module) => {
  const file = module.nameForCondition?.() ?? '';
  return /@reduxjs[\\/]toolkit[\\/]dist[\\/]query[\\/]/.test(file) || /[\\/]shared[\\/]state[\\/]src[\\/]platform-api\.ts$/.test(file);
};

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136+) at the top of each JS file `test` matches:
 * the file is compiled whole as it loads, on the thread that streams it in, instead of function by function on the
 * main thread as each first runs. For the code the first tap runs (the app's chunks, a remote's entry and modules),
 * most of which runs then: at 4× CPU it took Save on the search page from 625–1,168 to 520–780 ms and its longest task
 * from 93–210 to 57–131 ms (6 runs each). Other browsers ignore the comment. Added after minifying, before the
 * content hashes are worked out.
 * @param {RegExp} test
 */
export function compileHints(test) {
  return new rspack.BannerPlugin({
    banner: '//# allFunctionsCalledOnLoad',
    raw: true,
    test,
    stage: rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
  });
}

/**
 * The shell's browser build. The shell is not a federation build: it imports React, the router and
 * the store directly and starts the Module Federation runtime itself when the page loads its first
 * remote (shell/src/federation/federation-host.ts), handing it those instances as the shared
 * singletons with sharedSingletons' rules (__SHARED_SINGLETONS__). A page with no remote never
 * downloads the runtime. `firstPaint`: a module run before the app (see EntryAssetsPlugin).
 * @param {{ dir: string; outDir?: string; mode?: string; firstPaint?: string }} opts
 */
export function hostConfig({ dir, outDir = join(dir, 'dist', 'client'), mode = process.env.NODE_ENV, firstPaint }) {
  const sharedRoot = join(dir, '..', 'shared');
  const sharedSources = existsSync(sharedRoot) ? readdirSync(sharedRoot).map((pkg) => join(sharedRoot, pkg, 'src')) : [];
  assertBrowserRouterImports([join(dir, 'src'), ...sharedSources], dir);
  // The shell's (and so every remote's) React Router is its browser build.
  const router = browserRouterShared(dir, sharedSingletons);
  const config = baseConfig({ dir, outDir, mode });
  config.resolve.alias = {
    ...config.resolve.alias,
    'react-router$': router['react-router'].import,
    'react-router-dom$': router['react-router-dom'].import,
  };
  config.plugins.push(
    new rspack.DefinePlugin({ __SHARED_SINGLETONS__: JSON.stringify(sharedSingletons) }),
    new EntryAssetsPlugin({ firstPaint }),
    // Not the files a page runs as it loads (the first script, main, the prefetch list): only what the app's start runs.
    compileHints(/^(?!(first-paint|main|app-prefetch)\.)[^/]*\.js$/),
  );
  // The packages the shell needs on every page load as a few long-cached groups (HTTP/1.1 allows
  // 6 requests at a time per host, and gzip does better on a group than on each file alone).
  config.optimization.splitChunks = {
    cacheGroups: {
      react: {
        test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
        name: 'vendor-react',
        chunks: 'async',
        enforce: true,
        priority: 30,
      },
      // RTK Query and the platform API load with the first remote that asks for them (shell/src/federation/shared-modules.ts).
      platformApi: { test: rtkQueryOrPlatformApi, name: 'platform-api', chunks: 'async', enforce: true, priority: 40 },
      redux: {
        test: /node_modules[\\/](@reduxjs|react-redux|immer|reselect|redux|redux-thunk|use-sync-external-store)[\\/]/,
        name: 'vendor-redux',
        chunks: 'async',
        enforce: true,
        priority: 30,
      },
      router: {
        test: /node_modules[\\/](react-router|react-router-dom|\.cache[\\/]dealer-browser-router)[\\/]/,
        name: 'vendor-router',
        chunks: 'async',
        enforce: true,
        priority: 30,
      },
      dealer: { test: /[\\/]shared[\\/][a-z-]+[\\/]src[\\/]/, name: 'dealer-shared', chunks: 'async', enforce: true, priority: 20 },
      // The federation runtime and its plugins: one file, fetched with the first remote.
      federation: {
        test: /node_modules[\\/](\.pnpm[\\/])?@module-federation/,
        name: 'federation',
        chunks: 'async',
        enforce: true,
        priority: 30,
      },
    },
  };
  return config;
}
