// One Rspack + Module Federation config factory: every remote's and the shell's
// rspack.config.mjs calls it in a few lines, so the build rules live once.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { sharedSingletons } from './shared-singletons.mjs';

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
    resolve: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
    module: { rules: [swcRule, { test: /\.css$/, type: 'css/auto' }] },
    optimization: { minimize: production },
    performance: { hints: false },
    plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') })],
    stats: 'errors-warnings',
  };
}

/**
 * A remote: its exposed modules, a manifest, and a standalone dev page (index.html) that
 * mounts the remote's own demo with the shared design system.
 * @param {{ dir: string; name: string; exposes: Record<string, string>; port: number; outDir?: string; mode?: string }} opts
 */
export function remoteConfig({ dir, name, exposes, port, outDir = process.env.REMOTE_OUT_DIR || join(dir, 'dist'), mode = process.env.NODE_ENV }) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
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
    }),
    new rspack.HtmlRspackPlugin({ title: `${name} ${pkg.version} (standalone)`, template: existsSync(join(dir, 'index.html')) ? join(dir, 'index.html') : undefined }),
  );
  // The standalone page talks to a running platform as one demo site, through this proxy.
  const platform = process.env.PLATFORM_URL || 'http://127.0.0.1:3000';
  const siteHost = `${process.env.STANDALONE_SITE || 'metro-motor-group'}.localhost:${new URL(platform).port || 80}`;
  config.devServer = {
    port,
    headers: { 'Access-Control-Allow-Origin': '*' },
    historyApiFallback: true,
    proxy: [{ context: ['/api', '/meili', '/img'], target: platform, headers: { host: siteHost } }],
  };
  return config;
}

/** Writes assets.json: the initial files of the entry, which the server puts in the document. */
class EntryAssetsPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.rspack;
    compiler.hooks.thisCompilation.tap('EntryAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'EntryAssetsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const files = compilation.entrypoints.get('main')?.getFiles() ?? [];
        const assets = { js: files.filter((f) => f.endsWith('.js')), css: files.filter((f) => f.endsWith('.css')) };
        compilation.emitAsset('assets.json', new sources.RawSource(JSON.stringify(assets)));
      });
    });
  }
}

/**
 * The shell's browser build: no remotes at build time, all registered at run time
 * from the site config.
 * @param {{ dir: string; outDir?: string; mode?: string }} opts
 */
export function hostConfig({ dir, outDir = join(dir, 'dist', 'client'), mode = process.env.NODE_ENV }) {
  const config = baseConfig({ dir, outDir, mode });
  config.plugins.push(
    new ModuleFederationPlugin({ name: 'shell', remotes: {}, shared: sharedSingletons, dts: false, shareStrategy: 'loaded-first' }),
    new EntryAssetsPlugin(),
  );
  return config;
}
