import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-search',
  port: 3101,
  exposes: { './SearchPage': './src/search-page.tsx' },
  server: './src/server.ts',
});
