// The shell's server render (src/render-app.server.tsx) compiled for Node: the platform server
// loads dist/server/render-app.cjs at run time to put each page's markup in its first response.
// npm packages stay external (required from shell/node_modules, one React for the process);
// the workspace packages are compiled in; styles are the browser build's business.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';

const dir = dirname(fileURLToPath(import.meta.url));

export default {
  mode: 'production',
  target: 'node20',
  context: dir,
  entry: { 'render-app': './src/render-app.server.tsx' },
  output: { path: join(dir, 'dist', 'server'), filename: '[name].cjs', clean: true, library: { type: 'commonjs2' } },
  externalsPresets: { node: true },
  externals: [({ request }, callback) => (request && /^[@a-z]/.test(request) && !request.startsWith('@dealer/') ? callback(undefined, `commonjs ${request}`) : callback())],
  resolve: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
  module: {
    rules: [
      {
        test: /\.(ts|tsx)$/,
        loader: 'builtin:swc-loader',
        options: { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' } },
        type: 'javascript/auto',
      },
      { test: /\.css$/, type: 'asset/source' },
    ],
  },
  optimization: { minimize: false, splitChunks: false },
  devtool: 'source-map',
  plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') })],
  stats: 'errors-warnings',
};
