import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostConfig } from '@dealer/build/mf-config';

// The dealer console: a host like the shell (a browser app that starts the Module Federation
// runtime itself and loads each domain's dealer screen from the remote that owns it).
export default {
  ...hostConfig({ dir: dirname(fileURLToPath(import.meta.url)) }),
  entry: { main: './src/index.tsx' },
};
