// The shell's server render (src/render-app.server.tsx) compiled for Node: the platform server
// loads dist/server/render-app.cjs at run time to put each page's markup in its first response.
// npm packages stay external (required from shell/node_modules, one React for the process);
// the workspace packages are compiled in.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeRenderConfig } from '@dealer/build/mf-config';

const dir = dirname(fileURLToPath(import.meta.url));

export default {
  ...nodeRenderConfig({
    dir,
    entry: { 'render-app': './src/render-app.server.tsx' },
    outPath: join(dir, 'dist', 'server'),
    isExternal: (request) => /^[@a-z]/.test(request) && !request.startsWith('@dealer/'),
  }),
  devtool: 'source-map',
};
