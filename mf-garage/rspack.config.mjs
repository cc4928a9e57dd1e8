import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-garage',
  port: 3105,
  exposes: { './GaragePage': './src/garage-page.tsx', './FavouriteButton': './src/favourite-button.tsx' },
  server: './src/server.ts',
});
