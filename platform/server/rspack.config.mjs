// The server bundle: TypeScript of the platform packages and the shared contracts and rules compiled
// for Node; every npm dependency stays external and is required from node_modules at run time.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));

export default {
  mode: 'production',
  target: 'node20',
  context: dir,
  entry: { main: './src/main.ts', 'platform-cli': './src/cli.ts', 'render-thread': './src/document/render-thread.ts' },
  output: { path: join(dir, 'dist'), filename: '[name].cjs', chunkFilename: '[name].cjs', clean: true, library: { type: 'commonjs2' } },
  externalsPresets: { node: true },
  externals: [
    ({ request }, callback) =>
      request && /^[@a-z]/.test(request) && !request.startsWith('@dealer/') ? callback(undefined, `commonjs ${request}`) : callback(),
  ],
  resolve: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
  module: {
    rules: [
      {
        test: /\.(ts|tsx)$/,
        loader: 'builtin:swc-loader',
        options: { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' } },
        type: 'javascript/auto',
      },
    ],
  },
  optimization: { minimize: false, nodeEnv: false },
  devtool: 'source-map',
  // No compile-time NODE_ENV: src/main.ts sets it at run time (production unless told), for the
  // platform's code and for React, which the shell's server render requires from node_modules.
  stats: 'errors-warnings',
};
